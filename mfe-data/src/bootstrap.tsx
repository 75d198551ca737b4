// Standalone start (`pnpm --filter mfe-data dev`): the Download APK command and both pages inside
// the sign-in harness. In the console the shell loads ./Upload, ./Download and ./downloadApk instead.
import { StandaloneApp } from '@veritas/shared';
import { QueryProvider } from '@veritas/shared/query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import DownloadPage from './download-page';
import downloadApk from './download-apk';
import UploadPage from './upload-page';

// As in the shell's Data menu: a failed APK download is only logged (docs/errors.md#session-and-top-bar).
function startApkDownload() {
  downloadApk().catch((error: unknown) => console.error('APK download failed', error));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <StandaloneApp title="Data">
      <QueryProvider>
        <button type="button" className="vx-btn" onClick={startApkDownload}>
          Download APK
        </button>
        <hr className="vx-divider" />
        <UploadPage />
        <hr className="vx-divider" />
        <DownloadPage />
      </QueryProvider>
    </StandaloneApp>
  </StrictMode>,
);
