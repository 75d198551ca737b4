import { mockApi, type MockApi } from '@veritas/shared/testing';
import downloadApk, { APK_FILE_NAME } from './download-apk';
import { recordDownloads, type DownloadRecorder } from './testing/downloads';

let api: MockApi;
let downloads: DownloadRecorder;

beforeEach(() => {
  api = mockApi();
  downloads = recordDownloads();
});
afterEach(() => {
  api.restore();
  downloads.restore();
});

test('GET user/download_apk/ as a blob, saved as veritas_app.apk (docs/screens.md#download-apk)', async () => {
  const apk = new Blob(['PK\u0003\u0004'], { type: 'application/vnd.android.package-archive' });
  api.on('GET user/download_apk/', [200, apk]);

  await downloadApk();

  const [request] = api.requestsTo('GET user/download_apk/');
  expect(request?.config.responseType).toBe('blob');
  expect(APK_FILE_NAME).toBe('veritas_app.apk');
  expect(downloads.saved).toEqual([{ fileName: 'veritas_app.apk', href: expect.stringMatching(/^blob:/), blob: apk }]);
});

test('a failure throws (the shell only logs it, docs/errors.md#session-and-top-bar) and saves nothing', async () => {
  api.on('GET user/download_apk/', [404, { detail: 'No app package is configured' }]);
  await expect(downloadApk()).rejects.toMatchObject({ response: { status: 404 } });
  expect(downloads.saved).toEqual([]);
});
