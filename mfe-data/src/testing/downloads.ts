// Test support: records what saveBlob offered the user. jsdom has no object URLs and cannot follow
// a link, so both are stood in for; everything else (the link, its attributes) is real.

export interface SavedDownload {
  fileName: string;
  href: string;
  blob: Blob;
}

export interface DownloadRecorder {
  readonly saved: SavedDownload[];
  readonly revoked: string[];
  restore(): void;
}

export function recordDownloads(): DownloadRecorder {
  const blobs = new Map<string, Blob>();
  const saved: SavedDownload[] = [];
  const revoked: string[] = [];
  const { createObjectURL, revokeObjectURL } = URL;
  URL.createObjectURL = (blob: Blob) => {
    const url = `blob:veritas/${blobs.size + 1}`;
    blobs.set(url, blob as Blob);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    revoked.push(url);
  };
  const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (!this.isConnected) throw new Error('a link that is not in the document is ignored by some browsers');
    const href = this.getAttribute('href') ?? '';
    saved.push({ fileName: this.getAttribute('download') ?? '', href, blob: blobs.get(href)! });
  });
  return {
    saved,
    revoked,
    restore() {
      click.mockRestore();
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    },
  };
}
