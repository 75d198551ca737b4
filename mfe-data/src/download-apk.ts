// The Data menu's Download APK command (docs/screens.md#download-apk). Default export: the shell calls it and only
// logs a failure, so it throws rather than showing anything.
import { downloadApkFile } from './api/downloads';
import { saveBlob } from './save-blob';

export const APK_FILE_NAME = 'veritas_app.apk';

export default async function downloadApk(): Promise<void> {
  saveBlob(await downloadApkFile(), APK_FILE_NAME);
}
