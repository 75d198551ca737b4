// api/upload/: the chunked shipment-CSV upload (docs/csv.md#shipment-upload), one call per chunk.
// An upload left 'processing' by an instance that died is taken over by the next chunk sent for
// it, or by the sweeper of an instance (a job of the server's, jobs.ts; docs/operations.md#upload-leases).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import multipart from '@fastify/multipart';
import { UPLOAD_CHUNK_BYTES, UploadAnswer, UploadForm } from '@veritas/shared/domain';
import { requireRole } from '../plugins/authentication';
import { canUpload } from '../auth/rights';
import { readChunk, type MultipartLimits } from './chunk-form';
import { receiveChunk } from './receive-chunk';

export const uploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db } = app;
  // Only this scope parses multipart bodies. The three small fields come before the one file.
  await app.register(multipart, {
    limits: { files: 1, fileSize: UPLOAD_CHUNK_BYTES, fields: 3, fieldSize: 256, parts: 4 },
  });
  const { FieldsLimitError, FilesLimitError, PartsLimitError, RequestFileTooLargeError } = app.multipartErrors;
  const limits: MultipartLimits = {
    tooManyParts: (error) =>
      error instanceof FieldsLimitError || error instanceof FilesLimitError || error instanceof PartsLimitError,
    fileTooLarge: (error) => error instanceof RequestFileTooLargeError,
  };

  app.post(
    '/api/upload/',
    {
      // The console shows a failed upload's `error` field (docs/errors.md#upload). The multipart
      // parts are read as a stream (readChunk), so the form is documented, not validated.
      // Only the role gate's 403 is a refusal to record: a 409 asks to send the chunk again later.
      config: {
        errorField: 'error',
        documentedBody: UploadForm,
        audit: { action: 'upload.completed', refusals: [403] },
      },
      preValidation: requireRole(canUpload, 'Only admins can upload shipment files.'),
      schema: {
        tags: ['devices'],
        summary: 'Upload one chunk of a shipment CSV; the last missing chunk answers the result',
        consumes: ['multipart/form-data'],
        response: { 200: UploadAnswer },
      },
    },
    async (request) =>
      receiveChunk(
        db,
        request.user.id,
        await readChunk(request.isMultipart() ? request.parts() : null, limits),
        request.ip,
      ),
  );
};
