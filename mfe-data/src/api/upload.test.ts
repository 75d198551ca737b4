import { http } from '@veritas/shared';
import { mockApi, type MockApi, type MockHandler, type MockReply, type RecordedRequest } from '@veritas/shared/testing';
import { UPLOAD_CHUNK_BYTES } from '@veritas/shared/domain';
import {
  PROCESSING_POLLS,
  PROCESSING_POLL_MS,
  RETRY_DELAYS_MS,
  chunkCount,
  newUploadId,
  toUploadResult,
  uploadInChunks,
} from './upload';

const UPLOAD = 'POST api/upload/';
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const RESULT = {
  message: 'Upload complete',
  processed: 2,
  skipped: 0,
  duplicates: [],
  errors: [],
  duplicates_total: 0,
  errors_total: 0,
};

/** A CSV file of `size` bytes whose every byte is its chunk's number, so each chunk shows which it is. */
function csvOfSize(size: number, name = 'shipments.csv'): File {
  const bytes = new Uint8Array(size);
  for (let chunk = 0; chunk * UPLOAD_CHUNK_BYTES < size; chunk++)
    bytes.fill(chunk, chunk * UPLOAD_CHUNK_BYTES, (chunk + 1) * UPLOAD_CHUNK_BYTES);
  return new File([bytes], name, { type: 'text/csv' });
}

/** Answers like our server: non-final chunks {message, chunk_index}, the final one the result. */
const serverLike = ({ body }: RecordedRequest): MockReply => {
  const form = body as FormData;
  const index = Number(form.get('chunk_index'));
  const last = index === Number(form.get('total_chunks')) - 1;
  return [200, last ? RESULT : { message: 'Chunk received', chunk_index: index }];
};

/** The failure axios reports when a request got no answer. */
const networkError = () => Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK' });

/** Handler failing its first `n` calls with `failure`, then answering like the server. */
function failingFirst(n: number, failure: () => never): MockHandler {
  let calls = 0;
  return (request) => (++calls <= n ? failure() : serverLike(request));
}

/** jsdom's Blob has no arrayBuffer(). */
function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

const fields = (request: RecordedRequest) => [...(request.body as FormData).entries()];
const chunkIndexes = (requests: RecordedRequest[]) => requests.map((r) => (r.body as FormData).get('chunk_index'));

let api: MockApi;
let wait: jest.Mock<Promise<void>, [ms: number]>;

beforeEach(() => {
  api = mockApi().on(UPLOAD, serverLike);
  wait = jest.fn(async (_ms: number) => undefined);
});
afterEach(() => api.restore());

describe('chunks (docs/csv.md#sending-in-chunks)', () => {
  test('a file takes one chunk per 1 MiB begun; an empty file none', () => {
    expect([chunkCount(1), chunkCount(UPLOAD_CHUNK_BYTES), chunkCount(UPLOAD_CHUNK_BYTES + 1), chunkCount(0)]).toEqual([
      1, 1, 2, 0,
    ]);
  });

  test('a 2.5 MiB file is sent as 3 sequential chunks of 1 MiB, 1 MiB and 0.5 MiB, fields before the file', async () => {
    await uploadInChunks(csvOfSize(2.5 * UPLOAD_CHUNK_BYTES), { wait });

    const requests = api.requestsTo(UPLOAD);
    expect(requests).toHaveLength(3);
    const uploadId = (requests[0]!.body as FormData).get('upload_id');
    expect(uploadId).toMatch(UUID_V4);
    for (const [index, request] of requests.entries()) {
      expect(request.body).toBeInstanceOf(FormData);
      const entries = fields(request);
      expect(entries.map(([name]) => name)).toEqual(['upload_id', 'chunk_index', 'total_chunks', 'file']);
      expect(entries.slice(0, 3)).toEqual([
        ['upload_id', uploadId],
        ['chunk_index', String(index)],
        ['total_chunks', '3'],
      ]);
      const blob = entries[3]![1] as File;
      expect(blob.name).toBe('shipments.csv');
      expect(blob.size).toBe([UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_CHUNK_BYTES / 2][index]);
      const bytes = await bytesOf(blob);
      expect([bytes[0], bytes[bytes.length - 1]]).toEqual([index, index]);
    }
  });

  test('each chunk is sent only after the previous one was answered', async () => {
    let inFlight = 0;
    let most = 0;
    api.on(UPLOAD, async (request) => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return serverLike(request);
    });
    await uploadInChunks(csvOfSize(3 * UPLOAD_CHUNK_BYTES), { wait });
    expect(most).toBe(1);
    expect(chunkIndexes(api.requestsTo(UPLOAD))).toEqual(['0', '1', '2']);
  });

  test('every upload gets a fresh upload id', async () => {
    await uploadInChunks(csvOfSize(10), { wait });
    await uploadInChunks(csvOfSize(10), { wait });
    const [first, second] = api.requestsTo(UPLOAD).map((r) => (r.body as FormData).get('upload_id'));
    expect(first).not.toBe(second);
  });

  test('the upload id is a random UUID even where crypto.randomUUID is missing (plain http origins)', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const ids = [newUploadId(), newUploadId()];
      expect(ids[0]).toMatch(UUID_V4);
      expect(ids[1]).toMatch(UUID_V4);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });

  test('progress is reported after each chunk the server accepted', async () => {
    const onProgress = jest.fn();
    await uploadInChunks(csvOfSize(2.5 * UPLOAD_CHUNK_BYTES), { onProgress, wait });
    expect(onProgress.mock.calls).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  test("the final chunk's answer is the result", async () => {
    const answer = { ...RESULT, processed: 7, duplicates: [{ row: 3, tracking_id: 'T3' }], duplicates_total: 1 };
    api.on(UPLOAD, (request) =>
      (request.body as FormData).get('chunk_index') === '1'
        ? [200, answer]
        : [200, { message: 'Chunk received', chunk_index: 0 }],
    );
    await expect(uploadInChunks(csvOfSize(UPLOAD_CHUNK_BYTES + 1), { wait })).resolves.toEqual(answer);
  });

  test('an empty file cannot be sent', async () => {
    await expect(uploadInChunks(csvOfSize(0), { wait })).rejects.toThrow('An empty file cannot be uploaded');
    expect(api.requests).toHaveLength(0);
  });
});

describe('the request as it leaves the browser', () => {
  test('multipart FormData with the XSRF header and no JSON Content-Type, so the browser sets the boundary', async () => {
    api.restore(); // the real XMLHttpRequest adapter; the network is not reached
    const headers: Record<string, string> = {};
    let sent: unknown;
    const setHeader = jest.spyOn(XMLHttpRequest.prototype, 'setRequestHeader').mockImplementation((name, value) => {
      headers[name.toLowerCase()] = value;
    });
    const send = jest.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest, body) {
      sent = body;
      this.dispatchEvent(new ProgressEvent('error'));
    });
    document.cookie = 'XSRF-TOKEN=token-9; path=/';
    try {
      await expect(uploadInChunks(csvOfSize(10), { retryDelaysMs: [] })).rejects.toMatchObject({ isAxiosError: true });
    } finally {
      setHeader.mockRestore();
      send.mockRestore();
      document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
    }
    expect(sent).toBeInstanceOf(FormData);
    expect([...(sent as FormData).keys()]).toEqual(['upload_id', 'chunk_index', 'total_chunks', 'file']);
    expect(headers).not.toHaveProperty('content-type');
    expect(headers['x-xsrf-token']).toBe('token-9');
    // The shared client still sends JSON elsewhere.
    expect(http.defaults.headers['Content-Type']).toBe('application/json');
  });
});

describe('retries (network failure, 502/503/504)', () => {
  test('a chunk that failed on the network is sent again after 0.5 s, then the upload goes on', async () => {
    api.on(
      UPLOAD,
      failingFirst(1, () => {
        throw networkError();
      }),
    );
    await expect(uploadInChunks(csvOfSize(UPLOAD_CHUNK_BYTES + 1), { wait })).resolves.toEqual(RESULT);
    expect(chunkIndexes(api.requestsTo(UPLOAD))).toEqual(['0', '0', '1']);
    expect(wait.mock.calls).toEqual([[500]]);
    const [first, again] = api.requestsTo(UPLOAD);
    expect(fields(again!)).toEqual(fields(first!));
  });

  test.each([502, 503, 504])('a %i answer is retried', async (status) => {
    let calls = 0;
    api.on(UPLOAD, (request) => (++calls === 1 ? [status, { detail: 'gateway' }] : serverLike(request)));
    await expect(uploadInChunks(csvOfSize(10), { wait })).resolves.toEqual(RESULT);
    expect(api.requestsTo(UPLOAD)).toHaveLength(2);
  });

  test('after 3 retries with back-off 0.5 s, 1 s, 2 s the upload fails with the last error and sends nothing more', async () => {
    expect(RETRY_DELAYS_MS).toEqual([500, 1000, 2000]);
    api.on(UPLOAD, (request) =>
      (request.body as FormData).get('chunk_index') === '0' ? serverLike(request) : [503, { error: 'Busy' }],
    );
    await expect(uploadInChunks(csvOfSize(3 * UPLOAD_CHUNK_BYTES), { wait })).rejects.toMatchObject({
      response: { status: 503, data: { error: 'Busy' } },
    });
    expect(chunkIndexes(api.requestsTo(UPLOAD))).toEqual(['0', '1', '1', '1', '1']);
    expect(wait.mock.calls).toEqual([[500], [1000], [2000]]);
  });

  test('without injected waits, the back-off really waits before the retry', async () => {
    jest.useFakeTimers();
    try {
      api.on(
        UPLOAD,
        failingFirst(1, () => {
          throw networkError();
        }),
      );
      const upload = uploadInChunks(csvOfSize(10));
      await jest.advanceTimersByTimeAsync(499);
      expect(api.requestsTo(UPLOAD)).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(upload).resolves.toEqual(RESULT);
      expect(api.requestsTo(UPLOAD)).toHaveLength(2);
    } finally {
      jest.useRealTimers();
    }
  });

  test.each([400, 403, 413, 500])('a %i answer is not retried: the upload fails at once', async (status) => {
    api.on(UPLOAD, [status, { error: `refused ${status}` }]);
    await expect(uploadInChunks(csvOfSize(2 * UPLOAD_CHUNK_BYTES), { wait })).rejects.toMatchObject({
      response: { status },
    });
    expect(api.requestsTo(UPLOAD)).toHaveLength(1);
    expect(wait).not.toHaveBeenCalled();
  });

  test('a resent final chunk that finds the upload being processed (409) is polled every 2 s until the result', async () => {
    let calls = 0;
    // The first send reached the server but its answer was lost (a gateway timeout); the server
    // is still processing when the retry comes, then answers the kept result.
    api.on(UPLOAD, (request) => {
      calls++;
      if (calls === 1) return [504, { detail: 'gateway timeout' }];
      if (calls <= 3) return [409, { error: 'This upload is being processed.' }];
      return serverLike(request);
    });
    await expect(uploadInChunks(csvOfSize(10), { wait })).resolves.toEqual(RESULT);
    expect(api.requestsTo(UPLOAD)).toHaveLength(4);
    expect(wait.mock.calls).toEqual([[500], [PROCESSING_POLL_MS], [PROCESSING_POLL_MS]]);
  });

  test('a 409 on the first send is not polled: the upload fails at once', async () => {
    api.on(UPLOAD, [409, { error: 'This upload is being processed.' }]);
    await expect(uploadInChunks(csvOfSize(10), { wait })).rejects.toMatchObject({ response: { status: 409 } });
    expect(api.requestsTo(UPLOAD)).toHaveLength(1);
  });

  test('polling a processing upload gives up after 5 minutes with the 409', async () => {
    expect(PROCESSING_POLL_MS * PROCESSING_POLLS).toBe(5 * 60 * 1000);
    let calls = 0;
    api.on(UPLOAD, () => {
      if (++calls === 1) throw networkError();
      return [409, { error: 'This upload is being processed.' }];
    });
    await expect(uploadInChunks(csvOfSize(10), { wait })).rejects.toMatchObject({ response: { status: 409 } });
    expect(api.requestsTo(UPLOAD)).toHaveLength(2 + PROCESSING_POLLS);
  });

  test('an error that is not an HTTP failure is not retried', async () => {
    api.on(UPLOAD, () => {
      throw new TypeError('bug');
    });
    await expect(uploadInChunks(csvOfSize(10), { wait })).rejects.toThrow('bug');
    expect(api.requestsTo(UPLOAD)).toHaveLength(1);
  });
});

describe('the result', () => {
  test('a server that sends no totals: the lists are all there is', () => {
    const result = toUploadResult({
      message: 'Done',
      processed: 1,
      skipped: 2,
      duplicates: [{ row: 2, tracking_id: 'A' }],
      errors: [{ row: 3, errors: ['bad'] }],
    });
    expect(result).toMatchObject({ duplicates_total: 1, errors_total: 1 });
  });

  test('missing or malformed fields become empty lists and zeros, never a crash', () => {
    expect(toUploadResult({ message: 'Chunk received', chunk_index: 0 })).toEqual({
      message: 'Chunk received',
      processed: 0,
      skipped: 0,
      duplicates: [],
      errors: [],
      duplicates_total: 0,
      errors_total: 0,
    });
    expect(toUploadResult('oops').duplicates).toEqual([]);
  });
});
