// A case's photos (docs/cases.md#photos): taken from the console or by the operator at the
// doorstep, kept in the database (`case_photos`) so every instance of a fleet serves them. A
// photo's type is recognised from its bytes alone, never from the Content-Type its sender named:
// JPEG, PNG or WebP. Each is decoded and encoded anew in its own format by sharp, which writes
// none of the original's metadata: no EXIF (with its GPS position), XMP, IPTC, ICC profile, PNG
// text chunks or WebP EXIF/XMP chunks; its EXIF orientation is applied to the pixels first, so it
// shows upright. The photo, its timeline entry, its audit entry and the case's live event are
// written in one transaction.
import type { CasePhoto, CaseViewer } from '@veritas/shared/domain';
import {
  CASE_PHOTO_TYPES,
  MAX_CASE_PHOTOS,
  MAX_CASE_PHOTO_BYTES,
  canCommentCase,
  canReadCase,
} from '@veritas/shared/domain';
import type { Kysely } from 'kysely';
import sharp from 'sharp';
import { recordAudit, type AuditBy } from '../audit/trail';
import type { Database, Db } from '../db/schema';
import { casesEvent, writeEvents } from '../events/write';
import { BadRequest, Conflict, Forbidden, NotFound, PayloadTooLarge, UnsupportedMediaType } from '../http-errors';
import {
  countCasePhotos,
  findPhotoBytes,
  findPhotoCase,
  insertCasePhoto,
  lockCase,
  submitterOf,
} from './photo-repository';
import { caseTarget } from './audit-targets';
import { findCase, findOpenCase, insertCaseEvent, summaryOf, type CaseRow } from './repository';

export type CasePhotoType = (typeof CASE_PHOTO_TYPES)[number];

/** Who adds or reads a photo: the signed-in user and its rights' facts. */
export interface PhotoViewer extends CaseViewer {
  id: number;
}

/** The largest photo in pixels: a 48-megapixel camera's, with room (a decompression bomb is refused). */
export const MAX_CASE_PHOTO_PIXELS = 50_000_000;
/** The ids are PostgreSQL integers: a larger one names nothing (and would fail the query). */
const MAX_ID = 2_147_483_647;

const MiB = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;
const NOT_AN_IMAGE = 'The photo must be a JPEG, PNG or WebP image.';

// Every photo is new: sharp's cache of decoded images would only hold memory.
sharp.cache(false);

/**
 * The type of `bytes` by their signature (the Content-Type the sender named is not read). Three
 * fixed signatures, checked here rather than by a library (file-type): sharp would otherwise first
 * decode the formats we refuse (GIF, TIFF, SVG, HEIF), and it decodes the three we take anyway.
 */
export function photoTypeOf(bytes: Buffer): CasePhotoType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return null;
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The file name extension of a photo's type. */
export const extensionOf = (type: string): string =>
  type === 'image/jpeg' ? 'jpg' : type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'bin';

const SHARP_FORMAT: Record<CasePhotoType, string> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' };

/** The 413 of a photo over MAX_CASE_PHOTO_BYTES, whether read or refused while it arrives. */
export const PHOTO_TOO_LARGE = `The photo is too large: at most ${MiB(MAX_CASE_PHOTO_BYTES)}.`;

/**
 * The checks of a photo's bytes: not empty (400), at most MAX_CASE_PHOTO_BYTES (413), a JPEG, PNG
 * or WebP by its signature (415). Its type.
 */
export function checkPhotoBytes(bytes: unknown): CasePhotoType {
  if (!Buffer.isBuffer(bytes) || bytes.length === 0)
    throw new BadRequest('photo', 'The photo is missing: send the image’s bytes as the body.');
  if (bytes.length > MAX_CASE_PHOTO_BYTES) throw new PayloadTooLarge(PHOTO_TOO_LARGE);
  const type = photoTypeOf(bytes);
  if (!type) throw new UnsupportedMediaType(NOT_AN_IMAGE);
  return type;
}

/**
 * The photo encoded anew in its own format, upright and without metadata (sharp writes none unless
 * told to with withMetadata, keepExif and the like, which are not used). 415 when sharp cannot
 * decode it as the type its signature says; 413 beyond MAX_CASE_PHOTO_PIXELS.
 */
export async function strippedPhoto(bytes: Buffer, type: CasePhotoType): Promise<Buffer> {
  const image = () => sharp(bytes, { failOn: 'error', limitInputPixels: MAX_CASE_PHOTO_PIXELS });
  let format: string | undefined;
  try {
    ({ format } = await image().metadata());
  } catch (error) {
    throw tooManyPixels(error) ?? new UnsupportedMediaType(`${NOT_AN_IMAGE} This one cannot be read.`);
  }
  if (format !== SHARP_FORMAT[type]) throw new UnsupportedMediaType(`${NOT_AN_IMAGE} This one cannot be read.`);
  const upright = image().rotate();
  const encoded =
    type === 'image/jpeg'
      ? upright.jpeg({ quality: 90 })
      : type === 'image/png'
        ? upright.png()
        : upright.webp({ quality: 90 });
  try {
    return await encoded.toBuffer();
  } catch (error) {
    throw tooManyPixels(error) ?? new UnsupportedMediaType(`${NOT_AN_IMAGE} This one cannot be read.`);
  }
}

function tooManyPixels(error: unknown): PayloadTooLarge | null {
  return error instanceof Error && /pixel limit/i.test(error.message)
    ? new PayloadTooLarge(`The photo is too large: at most ${MAX_CASE_PHOTO_PIXELS / 1_000_000} megapixels.`)
    : null;
}

const TOO_MANY = `The case holds ${MAX_CASE_PHOTOS} photos already, the most it keeps.`;

/**
 * Adds a photo to case `caseId` from the console: 404 unless `viewer` may read the case, 403
 * unless it may comment on it; then the checks of checkPhotoBytes, 409 for a case holding
 * MAX_CASE_PHOTOS already, 415 for an image that cannot be decoded.
 */
export async function addCasePhoto(
  db: Db,
  by: AuditBy,
  viewer: PhotoViewer,
  caseId: number,
  bytes: Buffer,
): Promise<CasePhoto> {
  const locate = async (kysely: Kysely<Database>) => {
    const row = caseId <= MAX_ID ? await findCase(kysely, caseId) : undefined;
    if (!row || !canReadCase(viewer, row.queue)) throw new NotFound(`Case ${caseId} not found.`);
    if (!canCommentCase(viewer, row.queue))
      throw new Forbidden('Your role cannot add photos to the cases of this queue.');
    return row;
  };
  return storePhoto(db, by, viewer.id, locate, bytes, 'console');
}

/**
 * Adds a photo from the mobile app to the open case of `trackingId`, by the operator who submitted
 * the device at the doorstep or a user who may comment on the case: 404 when it has none, or to who
 * may not read it (as a case of another queue is answered, so that nobody learns it exists), 403
 * to who may read it but not comment. Then as addCasePhoto.
 */
export async function addAppCasePhoto(
  db: Db,
  by: AuditBy,
  user: PhotoViewer,
  trackingId: string,
  bytes: Buffer,
): Promise<CasePhoto> {
  const locate = async (kysely: Kysely<Database>) => {
    const row = await findOpenCase(kysely, trackingId);
    const missing = () => new NotFound(`No open case for tracking ID ${trackingId}.`);
    if (!row) throw missing();
    if (canCommentCase(user, row.queue) || (await submitterOf(kysely, trackingId)) === user.id) return row;
    if (!canReadCase(user, row.queue)) throw missing();
    throw new Forbidden('Your role cannot add photos to the cases of this queue.');
  };
  return storePhoto(db, by, user.id, locate, bytes, 'app');
}

async function storePhoto(
  db: Db,
  by: AuditBy,
  actorId: number,
  locate: (kysely: Kysely<Database>) => Promise<CaseRow>,
  bytes: Buffer,
  channel: 'console' | 'app',
): Promise<CasePhoto> {
  // Who may, and whether the case has room, before the image is decoded: decoding is the costly part.
  const found = await locate(db.kysely);
  const type = checkPhotoBytes(bytes);
  if ((await countCasePhotos(db.kysely, found.id)) >= MAX_CASE_PHOTOS) throw new Conflict(TOO_MANY);
  const photo = await strippedPhoto(bytes, type);

  return db.transaction(async (trx) => {
    const row = await locate(trx);
    // Two photos added at once to a case holding nine: the second waits here, then counts ten.
    await lockCase(trx, db, row.id);
    if ((await countCasePhotos(trx, row.id)) >= MAX_CASE_PHOTOS) throw new Conflict(TOO_MANY);
    const at = new Date().toISOString();
    const id = await insertCasePhoto(trx, {
      case_id: row.id,
      content_type: type,
      bytes: photo,
      size: photo.length,
      added_by_id: actorId,
      added_at: at,
    });
    const facts = { photo_id: id, content_type: type, size: photo.length };
    await insertCaseEvent(trx, { case_id: row.id, at, kind: 'photo', actor_id: actorId, details: facts });
    await recordAudit(trx, db, by, {
      action: 'case.photo-added',
      outcome: 'success',
      target: caseTarget(row),
      details: { after: facts, channel, received_size: bytes.length },
    });
    await writeEvents(trx, db, [casesEvent('updated', summaryOf(row))]);
    return { id, content_type: type, size: photo.length, by: by.actor.name, at, url: photoUrl(id) };
  });
}

export const photoUrl = (id: number) => `api/cases/photos/${id}/`;

/** A photo to answer: its recognised type and bytes. */
export interface PhotoFile {
  id: number;
  contentType: string;
  bytes: Buffer;
}

/** Photo `photoId`, for a viewer who may read its case; 404 otherwise (or when there is none). */
export async function readCasePhoto(db: Db, viewer: CaseViewer, photoId: number): Promise<PhotoFile> {
  const missing = () => new NotFound(`Photo ${photoId} not found.`);
  if (photoId > MAX_ID) throw missing();
  // Whose it is first: the bytes are read only for a viewer who may see them.
  const photo = await findPhotoCase(db.kysely, photoId);
  if (!photo || !canReadCase(viewer, photo.queue)) throw missing();
  const bytes = await findPhotoBytes(db.kysely, photoId);
  if (!bytes) throw missing();
  return { id: photoId, contentType: photo.content_type, bytes };
}
