// The evidence of a case: its photos as thumbnails and, for whoever may comment, a drop zone with
// an "Add photo" button (JPEG, PNG or WebP, up to MAX_CASE_PHOTO_BYTES, up to MAX_CASE_PHOTOS).
// The type and size are checked here first; the server checks the bytes again and may refuse.
import { BusyButton, notifyError, toast, type CaseDetail } from '@veritas/shared';
import { CASE_PHOTO_TYPES, MAX_CASE_PHOTO_BYTES, MAX_CASE_PHOTOS } from '@veritas/shared/case-vocabulary';
import { useQueryClient } from '@veritas/shared/query';
import { useState } from 'react';
import { ErrorCode, useDropzone, type FileRejection } from 'react-dropzone';
import { addPhoto, CASES_KEY, photoSrc } from '../api/cases';

const EXTENSIONS: Record<(typeof CASE_PHOTO_TYPES)[number], string[]> = {
  'image/jpeg': ['.jpg', '.jpeg'],
  'image/png': ['.png'],
  'image/webp': ['.webp'],
};
const ACCEPT = Object.fromEntries(CASE_PHOTO_TYPES.map((type) => [type, EXTENSIONS[type]]));
const MAX_MB = Math.round(MAX_CASE_PHOTO_BYTES / (1024 * 1024));

/** The Add photo button's hint (docs/screens.md#case-page): the types, the size and how many a case keeps. */
export const PHOTO_HINT = `JPEG, PNG or WebP, up to ${MAX_MB} MB, at most ${MAX_CASE_PHOTOS}.`;

export const PHOTO_MESSAGES = {
  wrongType: 'Only JPEG, PNG or WebP photos can be added.',
  tooLarge: `A photo may be at most ${MAX_MB} MB.`,
  tooMany: 'Add one photo at a time.',
  empty: 'The file is empty.',
  refused: 'The photo could not be added.',
  full: `This case has the most photos it keeps (${MAX_CASE_PHOTOS}).`,
} as const;

function rejectionText(count: number, rejections: readonly FileRejection[]): string {
  if (count > 1) return PHOTO_MESSAGES.tooMany;
  switch (rejections[0]?.errors[0]?.code) {
    case ErrorCode.FileInvalidType:
      return PHOTO_MESSAGES.wrongType;
    case ErrorCode.FileTooLarge:
      return PHOTO_MESSAGES.tooLarge;
    case ErrorCode.FileTooSmall:
      return PHOTO_MESSAGES.empty;
    default:
      return PHOTO_MESSAGES.refused;
  }
}

function PhotoDrop({ caseId }: { caseId: number }) {
  const client = useQueryClient();
  const [message, setMessage] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function send(file: File) {
    setSending(true);
    try {
      await addPhoto(caseId, file);
      toast.success('Photo added');
      await client.invalidateQueries({ queryKey: CASES_KEY });
    } catch (error) {
      setMessage(notifyError(error, PHOTO_MESSAGES.refused));
    } finally {
      setSending(false);
    }
  }

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    accept: ACCEPT,
    maxSize: MAX_CASE_PHOTO_BYTES,
    minSize: 1,
    multiple: false,
    maxFiles: 1,
    // The visible button opens the file dialog; the zone itself only takes drops.
    noClick: true,
    noKeyboard: true,
    disabled: sending,
    onDrop: (accepted, rejections) => {
      setMessage(null);
      if (rejections.length > 0 || accepted.length !== 1)
        return setMessage(rejectionText(accepted.length + rejections.length, rejections));
      void send(accepted[0]!);
    },
  });

  return (
    <div className="cp-photo-drop">
      <div
        {...getRootProps({
          className: `cp-dropzone${isDragActive ? ' cp-dropzone--active' : ''}`,
        })}
      >
        {/* Out of the layout and the tab order: the button below opens the dialog. */}
        <input {...getInputProps({ style: { display: 'none' } })} aria-label="Photo file" data-testid="photo-input" />
        <p className="cp-dropzone__text">Drop a photo here, or</p>
        <BusyButton className="vx-btn" busy={sending} onClick={open} aria-describedby="cp-photo-hint">
          {sending ? 'Adding photo…' : 'Add photo'}
        </BusyButton>
        <p id="cp-photo-hint" className="vx-hint">
          {PHOTO_HINT}
        </p>
      </div>
      {message && (
        <p className="vx-notice vx-notice--error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

export function CasePhotos({ detail }: { detail: CaseDetail }) {
  const { case: summary, photos, rights } = detail;
  return (
    <section className="vx-card" aria-labelledby="cp-photos">
      <h2 id="cp-photos" className="vx-card-title">
        Evidence
      </h2>
      {photos.length === 0 ? (
        <p className="vx-muted">No photos yet.</p>
      ) : (
        <ul className="cp-photos">
          {photos.map((photo, index) => (
            <li key={photo.id}>
              <a href={photoSrc(photo)} target="_blank" rel="noreferrer" className="cp-photo">
                <img src={photoSrc(photo)} alt={`Photo ${index + 1} of case #${summary.id}`} loading="lazy" />
              </a>
            </li>
          ))}
        </ul>
      )}
      {rights.comment &&
        (photos.length < MAX_CASE_PHOTOS ? (
          <PhotoDrop caseId={summary.id} />
        ) : (
          <p className="vx-muted">{PHOTO_MESSAGES.full}</p>
        ))}
    </section>
  );
}
