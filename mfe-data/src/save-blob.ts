// Saving a downloaded file (the report CSV, the APK) the way a browser saves a link's target.

// Some browsers read the object URL only after click() has returned, so it is released later.
export const REVOKE_DELAY_MS = 10_000;

/** Offer `blob` to the user as a download named `fileName`. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  // Firefox ignores clicks on links that are not in the document.
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
}
