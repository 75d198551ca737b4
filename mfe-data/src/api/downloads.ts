// The files the Data pages download (docs/screens.md#download-data, #download-apk): the report CSV
// of a date range and the mobile app's APK. Reads: nothing in the cache changes.
import { http } from '@veritas/shared';

/** POST api/generate_csv/ {start_date, end_date}: the report of the range, reporting the bytes received. */
export async function downloadReport(
  { start, end }: { start: string; end: string },
  onProgress: (received: { loaded: number; total?: number }) => void,
): Promise<Blob> {
  const { data } = await http.post<Blob>(
    'api/generate_csv/',
    { start_date: start, end_date: end },
    { responseType: 'blob', onDownloadProgress: ({ loaded, total }) => onProgress({ loaded, total }) },
  );
  return data;
}

/** GET user/download_apk/: the mobile app. */
export async function downloadApkFile(): Promise<Blob> {
  const { data } = await http.get<Blob>('user/download_apk/', { responseType: 'blob' });
  return data;
}
