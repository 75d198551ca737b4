import { REVOKE_DELAY_MS, saveBlob } from './save-blob';
import { recordDownloads, type DownloadRecorder } from './testing/downloads';

let downloads: DownloadRecorder;
beforeEach(() => {
  jest.useFakeTimers();
  downloads = recordDownloads();
});
afterEach(() => {
  downloads.restore();
  jest.useRealTimers();
});

test('the blob is offered through a download link that leaves nothing behind', () => {
  const blob = new Blob(['a,b\n']);
  saveBlob(blob, 'report.csv');

  expect(downloads.saved).toEqual([{ fileName: 'report.csv', href: expect.stringMatching(/^blob:/), blob }]);
  expect(document.querySelector('a')).toBeNull();
});

test('the object URL is released after a delay, not while the browser may still read it', () => {
  saveBlob(new Blob(['x']), 'x.csv');
  const href = downloads.saved[0]?.href;
  jest.advanceTimersByTime(REVOKE_DELAY_MS - 1);
  expect(downloads.revoked).toEqual([]);
  jest.advanceTimersByTime(1);
  expect(downloads.revoked).toEqual([href]);
});
