// Upload CSV File (route Upload, docs/screens.md#upload-csv-file): one CSV chosen by drop or picker, sent
// in chunks with progress; the result or the error shows for 5 s. Default export: the shell's page.
import { BusyButton, serverMessage, type UploadResult } from '@veritas/shared';
import { isCsvFileName, MAX_UPLOAD_BYTES, NOT_A_CSV_FILE, UPLOAD_TOO_LARGE } from '@veritas/shared/domain';
import { useCallback, useEffect, useState } from 'react';
import { ErrorCode, useDropzone, type FileRejection } from 'react-dropzone';
import { useUpload } from './api/upload';
import { ProgressBar } from './progress-bar';
import { formatKilobytes } from './sizes';
import { UploadResultPanel } from './upload-result-panel';
import './data.css';

export const MESSAGE_CLEAR_MS = 5000;
export const UPLOAD_FAILED = 'Upload failed';

export const REJECTION_MESSAGES: Record<ErrorCode, string> = {
  [ErrorCode.FileInvalidType]: NOT_A_CSV_FILE,
  [ErrorCode.FileTooLarge]: UPLOAD_TOO_LARGE,
  [ErrorCode.FileTooSmall]: 'File is empty: please choose a CSV file with data',
  [ErrorCode.TooManyFiles]: 'Too many files: please choose one CSV file',
};

function rejectionMessage(fileCount: number, rejections: readonly FileRejection[]): string {
  // react-dropzone marks only the valid files past the first as too many; to the user, any drop
  // of several files is one too many, whatever else is wrong with one of them.
  const code = fileCount > 1 ? ErrorCode.TooManyFiles : rejections[0]?.errors[0]?.code;
  return REJECTION_MESSAGES[code as ErrorCode] ?? 'This file cannot be uploaded';
}

/**
 * react-dropzone accepts a file whose type OR name matches `accept`; the server takes only names
 * ending in `.csv`, so a `text/csv` file named otherwise is refused here, before it is sent.
 */
function csvName(file: File) {
  return isCsvFileName(file.name) ? null : { code: ErrorCode.FileInvalidType, message: NOT_A_CSV_FILE };
}

export default function UploadPage() {
  const [file, setFile] = useState<File | null>(null);
  const [rejection, setRejection] = useState<string | null>(null);
  const send = useUpload();
  const uploading = send.isPending;
  const [percent, setPercent] = useState(0);
  const [result, setResult] = useState<UploadResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!result && !error) return;
    const timer = setTimeout(() => {
      setResult(null);
      setError(null);
    }, MESSAGE_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [result, error]);

  const onDrop = useCallback((accepted: File[], rejections: FileRejection[]) => {
    setPercent(0);
    setResult(null);
    setError(null);
    if (rejections.length > 0) {
      setFile(null);
      setRejection(rejectionMessage(accepted.length + rejections.length, rejections));
    } else {
      setFile(accepted[0] ?? null);
      setRejection(null);
    }
  }, []);

  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    onDrop,
    accept: { 'text/csv': ['.csv'] },
    validator: csvName,
    multiple: false,
    maxFiles: 1,
    minSize: 1,
    maxSize: MAX_UPLOAD_BYTES,
    disabled: uploading,
  });

  async function upload() {
    if (!file) return;
    setPercent(0);
    setResult(null);
    setError(null);
    try {
      setResult(
        await send.mutateAsync({
          file,
          onProgress: (accepted, total) => setPercent(Math.round((accepted / total) * 100)),
        }),
      );
    } catch (failure) {
      setError(serverMessage(failure, ['error']) ?? UPLOAD_FAILED);
    }
  }

  return (
    <section className="vx-page">
      <h1 className="vx-page-title">Upload CSV File</h1>
      <div className="vx-card dt-card">
        <div
          {...getRootProps({
            role: 'button',
            className: `dt-dropzone${isDragActive ? ' dt-dropzone--active' : ''}${uploading ? ' dt-dropzone--disabled' : ''}`,
            'aria-disabled': uploading || undefined,
          })}
        >
          {/* react-dropzone hides its input by size and opacity only, which leaves a focusable control
              inside the zone (button in button). Out of the layout, it still opens the file dialog. */}
          <input {...getInputProps({ style: { display: 'none' } })} />
          <p className="dt-dropzone__text">Drag and drop a CSV file here, or click to select a file</p>
          <p className="dt-dropzone__hint vx-muted">Only CSV files are accepted</p>
        </div>
        {rejection && (
          <p className="vx-notice vx-notice--error dt-panel" role="alert">
            {rejection}
          </p>
        )}
        {file && (
          <div className="dt-file" role="group" aria-label="Selected file">
            <p className="dt-file__name">{file.name}</p>
            <p className="dt-file__size vx-muted">{formatKilobytes(file.size)}</p>
          </div>
        )}
        {(uploading || result || error) && <ProgressBar label={`Uploading... ${percent}%`} percent={percent} />}
        <BusyButton
          className="vx-btn vx-btn-primary dt-action"
          disabled={!file}
          busy={uploading}
          onClick={() => void upload()}
        >
          Upload
        </BusyButton>
        {result && <UploadResultPanel result={result} />}
        {error && (
          <p className="vx-notice vx-notice--error dt-panel" role="alert">
            {error}
          </p>
        )}
      </div>
    </section>
  );
}
