import type { UploadResult } from '@veritas/shared';
import { mockApi, type MockApi, type MockReply, type RecordedRequest, withQueryClient } from '@veritas/shared/testing';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MAX_UPLOAD_BYTES, UPLOAD_CHUNK_BYTES } from '@veritas/shared/domain';
import UploadPage from './upload-page';

const UPLOAD = 'POST api/upload/';

const RESULT: UploadResult = {
  message: 'Upload complete',
  processed: 5,
  skipped: 3,
  duplicates: [
    { row: 2, tracking_id: 'TRK-0002' },
    { row: 4, tracking_id: 'TRK-0004' },
  ],
  errors: [
    {
      row: 6,
      errors: [
        'hub_code XYZ is not a known hub',
        'device_type must be one of smarttv, laptop, tablet, mobile, truewireless',
      ],
    },
  ],
  duplicates_total: 2,
  errors_total: 1,
};

function csv(size: number, name = 'shipments.csv', type = 'text/csv'): File {
  return new File([new Uint8Array(size)], name, { type });
}

/** A file that says it is `size` bytes without holding them (for the 100 MiB limit). */
function fileClaiming(size: number, name = 'huge.csv'): File {
  const file = csv(1, name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

const chunkIndex = (request: RecordedRequest) => Number((request.body as FormData).get('chunk_index'));

/** Answers like our server: non-final chunks {message, chunk_index}, the final one `result`. */
function serverLike(result: unknown = RESULT) {
  return (request: RecordedRequest): MockReply => {
    const form = request.body as FormData;
    const last = chunkIndex(request) === Number(form.get('total_chunks')) - 1;
    return [200, last ? result : { message: 'Chunk received', chunk_index: chunkIndex(request) }];
  };
}

/** Holds each chunk's answer until the test releases it. */
function heldChunks(result: unknown = RESULT) {
  const waiting: (() => void)[] = [];
  const answer = serverLike(result);
  return {
    handler: (request: RecordedRequest) =>
      new Promise<MockReply>((resolve) => waiting.push(() => resolve(answer(request)))),
    async release() {
      await act(async () => waiting.shift()?.());
    },
    get pending() {
      return waiting.length;
    },
  };
}

let api: MockApi;
beforeEach(() => {
  api = mockApi().on(UPLOAD, serverLike());
});
afterEach(() => {
  api.restore();
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const dropZone = () => screen.getByRole('button', { name: /Drag and drop a CSV file here/ });
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const uploadButton = () => screen.getByRole('button', { name: 'Upload' });
const progressBar = () => screen.queryByRole('progressbar');

/** Drop files on the zone, as a drag from the desktop does. */
async function drop(...files: File[]) {
  const items = files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file }));
  fireEvent.drop(dropZone(), { dataTransfer: { files, items, types: ['Files'] } });
  // The drop zone reads the dropped items asynchronously.
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
}

/** Choose a file through the zone's file picker. */
async function pick(file: File) {
  await userEvent.setup({ applyAccept: false }).upload(fileInput(), file);
}

/** Render, choose `file` (the drop zone reads it on real timers), then fake the clock and upload. */
async function uploadWithFakeTimers(file: File) {
  render(<UploadPage />, { wrapper: withQueryClient() });
  await drop(file);
  jest.useFakeTimers();
  fireEvent.click(uploadButton());
}

async function chooseAndUpload(file: File) {
  await pick(file);
  fireEvent.click(uploadButton());
}

describe('the drop zone (docs/screens.md#upload-csv-file)', () => {
  test("title, the zone's texts and an Upload button that needs a file", () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    expect(screen.getByRole('heading', { level: 1, name: 'Upload CSV File' })).toBeInTheDocument();
    expect(dropZone()).toHaveTextContent('Drag and drop a CSV file here, or click to select a file');
    expect(dropZone()).toHaveTextContent('Only CSV files are accepted');
    expect(uploadButton()).toBeDisabled();
    expect(progressBar()).not.toBeInTheDocument();
  });

  test('the picker offers one CSV file', () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    expect(fileInput()).toHaveAttribute('accept', 'text/csv,.csv');
    expect(fileInput()).not.toHaveAttribute('multiple');
  });

  test('the zone is one keyboard control: its file input is out of the layout, and Enter or Space opens the file dialog', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    // Hidden by display (not only by size), the input is neither focusable nor a control nested in the zone.
    expect(fileInput()).toHaveStyle({ display: 'none' });
    expect(fileInput()).not.toBeVisible();
    const openDialog = jest.spyOn(fileInput(), 'click').mockImplementation(() => {});
    await userEvent.tab();
    expect(dropZone()).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(openDialog).toHaveBeenCalledTimes(1);
    await userEvent.keyboard(' ');
    expect(openDialog).toHaveBeenCalledTimes(2);
  });

  test('a chosen file shows its name and its size in KB with two decimals', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await pick(csv(1536, 'march.csv'));
    const panel = screen.getByRole('group', { name: 'Selected file' });
    expect(panel).toHaveTextContent('march.csv');
    expect(panel).toHaveTextContent('1.50 KB');
    expect(uploadButton()).toBeEnabled();
  });

  test('a dropped CSV is selected too', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await drop(csv(2048, 'dropped.csv'));
    expect(screen.getByRole('group', { name: 'Selected file' })).toHaveTextContent('dropped.csv2.00 KB');
  });

  test('a .CSV file that the system calls an Excel file is accepted by its extension', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await drop(csv(10, 'EXPORT.CSV', 'application/vnd.ms-excel'));
    expect(screen.getByRole('group', { name: 'Selected file' })).toHaveTextContent('EXPORT.CSV');
  });

  test('a file of exactly 100 MiB (the server limit) is accepted', async () => {
    expect(MAX_UPLOAD_BYTES).toBe(104_857_600);
    render(<UploadPage />, { wrapper: withQueryClient() });
    await drop(fileClaiming(MAX_UPLOAD_BYTES, 'limit.csv'));
    expect(screen.getByRole('group', { name: 'Selected file' })).toHaveTextContent('limit.csv102400.00 KB');
  });

  test.each([
    ['invalid type', [csv(10, 'notes.txt', 'text/plain')], 'Invalid file type: please choose a .csv file'],
    [
      'a CSV type under a name not ending in .csv (the server refuses the name)',
      [csv(10, 'data.csv.exe')],
      'Invalid file type: please choose a .csv file',
    ],
    ['too large', [fileClaiming(MAX_UPLOAD_BYTES + 1)], 'File is too large: the maximum size is 100 MB'],
    [
      'too small (empty file: it cannot be sent)',
      [csv(0, 'empty.csv')],
      'File is empty: please choose a CSV file with data',
    ],
    ['too many files', [csv(10, 'a.csv'), csv(10, 'b.csv')], 'Too many files: please choose one CSV file'],
    [
      'too many files, one of them invalid',
      [csv(10, 'a.csv'), csv(10, 'b.txt', 'text/plain')],
      'Too many files: please choose one CSV file',
    ],
  ])('rejection, %s: one clear message and no file selected', async (_case, files, message) => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await drop(...files);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('group', { name: 'Selected file' })).not.toBeInTheDocument();
    expect(uploadButton()).toBeDisabled();
  });

  test('a rejected drop replaces the selected file; a valid one then clears the message', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await pick(csv(10, 'good.csv'));
    await drop(csv(10, 'bad.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'));
    expect(screen.queryByText('good.csv')).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid file type');
    await drop(csv(10, 'good.csv'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('good.csv')).toBeInTheDocument();
  });
});

describe('uploading (docs/csv.md#sending-in-chunks)', () => {
  test('a 2.5 MiB file goes as 3 chunks of one upload, in order, with the file name kept', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(2.5 * UPLOAD_CHUNK_BYTES, 'big.csv'));
    await screen.findByText('Upload complete');

    const requests = api.requestsTo(UPLOAD);
    expect(requests.map(chunkIndex)).toEqual([0, 1, 2]);
    const forms = requests.map((r) => r.body as FormData);
    expect(new Set(forms.map((f) => f.get('upload_id'))).size).toBe(1);
    expect(forms.map((f) => f.get('total_chunks'))).toEqual(['3', '3', '3']);
    expect(forms.map((f) => (f.get('file') as File).name)).toEqual(['big.csv', 'big.csv', 'big.csv']);
    expect(forms.map((f) => (f.get('file') as File).size)).toEqual([
      UPLOAD_CHUNK_BYTES,
      UPLOAD_CHUNK_BYTES,
      UPLOAD_CHUNK_BYTES / 2,
    ]);
  });

  test("'Uploading... N%' follows the chunks the server accepted; the button and the zone are disabled meanwhile", async () => {
    const chunks = heldChunks();
    api.on(UPLOAD, chunks.handler);
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(2.5 * UPLOAD_CHUNK_BYTES));

    await waitFor(() => expect(chunks.pending).toBe(1));
    expect(screen.getByText('Uploading... 0%')).toBeInTheDocument();
    expect(progressBar()).toHaveAttribute('aria-valuenow', '0');
    expect(uploadButton()).toHaveAttribute('aria-disabled', 'true');
    expect(dropZone()).toHaveAttribute('aria-disabled', 'true');
    await drop(csv(10, 'other.csv'));
    expect(screen.getByRole('group', { name: 'Selected file' })).toHaveTextContent('shipments.csv');

    await chunks.release();
    expect(await screen.findByText('Uploading... 33%')).toBeInTheDocument();
    expect(progressBar()).toHaveAttribute('aria-valuenow', '33');
    expect(progressBar()).toHaveAccessibleName('Uploading... 33%');
    expect([progressBar()?.getAttribute('aria-valuemin'), progressBar()?.getAttribute('aria-valuemax')]).toEqual([
      '0',
      '100',
    ]);

    await chunks.release();
    expect(await screen.findByText('Uploading... 67%')).toBeInTheDocument();

    await chunks.release();
    expect(await screen.findByText('Uploading... 100%')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Upload complete');
    expect(uploadButton()).not.toHaveAttribute('aria-disabled');
    expect(dropZone()).not.toHaveAttribute('aria-disabled');
  });

  test('a chunk that failed on the network is sent again, and the upload succeeds', async () => {
    let calls = 0;
    const answer = serverLike();
    api.on(UPLOAD, (request) => {
      if (++calls === 1) throw Object.assign(new Error('Network Error'), { isAxiosError: true, code: 'ERR_NETWORK' });
      return answer(request);
    });
    await uploadWithFakeTimers(csv(10));
    await act(async () => jest.advanceTimersByTimeAsync(500));
    expect(screen.getByRole('status')).toHaveTextContent('Upload complete');
    expect(api.requestsTo(UPLOAD)).toHaveLength(2);
  });

  test("a chunk that keeps failing ends in 'Upload failed' after the retries, and the page can upload again", async () => {
    api.on(UPLOAD, [503, { detail: 'Service unavailable' }]);
    await uploadWithFakeTimers(csv(10));
    await act(async () => jest.advanceTimersByTimeAsync(500 + 1000 + 2000));
    expect(screen.getByRole('alert')).toHaveTextContent('Upload failed');
    expect(api.requestsTo(UPLOAD)).toHaveLength(4);
    expect(uploadButton()).not.toHaveAttribute('aria-disabled');
  });

  test('a 4xx answer is not retried', async () => {
    api.on(UPLOAD, [400, { error: 'Missing required column: tracking_id' }]);
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(2 * UPLOAD_CHUNK_BYTES));
    expect(await screen.findByRole('alert')).toHaveTextContent('Missing required column: tracking_id');
    expect(api.requestsTo(UPLOAD)).toHaveLength(1);
    expect(uploadButton()).not.toHaveAttribute('aria-disabled');
  });
});

describe('the success panel (docs/csv.md#result)', () => {
  test("shows the server's message, processed, skipped, the duplicates and the errors", async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    const panel = await screen.findByRole('status');
    expect(panel).toHaveTextContent('Upload complete');
    expect(panel).toHaveTextContent('Processed5');
    expect(panel).toHaveTextContent('Skipped3');
    const duplicates = within(panel).getByRole('region', { name: 'Duplicates' });
    expect(within(duplicates).getByRole('heading', { level: 2 })).toHaveTextContent('Duplicates (2)');
    expect(
      within(duplicates)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Row 2: TRK-0002', 'Row 4: TRK-0004']);
    const errors = within(panel).getByRole('region', { name: 'Errors' });
    expect(within(errors).getByRole('heading', { level: 2 })).toHaveTextContent('Errors (1)');
    expect(
      within(errors)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Row 6: hub_code XYZ is not a known hub; device_type must be one of smarttv, laptop, tablet, mobile, truewireless',
    ]);
    expect(within(panel).queryByText(/more$/)).not.toBeInTheDocument();
  });

  test("when a total exceeds its list (the server lists the first 1000), it says 'and N more'", async () => {
    api.on(UPLOAD, serverLike({ ...RESULT, duplicates_total: 1502, errors_total: 1001 }));
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    const panel = await screen.findByRole('status');
    expect(
      within(within(panel).getByRole('region', { name: 'Duplicates' })).getByText('and 1500 more'),
    ).toBeInTheDocument();
    expect(
      within(within(panel).getByRole('region', { name: 'Errors' })).getByText('and 1000 more'),
    ).toBeInTheDocument();
  });

  test('a list taller than its box scrolls in a region named after it, which takes keyboard focus', async () => {
    // jsdom has no layout: the lists' boxes say their content is taller than they are.
    const scrolling = (element: HTMLElement) => element.classList.contains('dt-rows__scroll');
    jest.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return scrolling(this) ? 600 : 0;
    });
    jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
      return scrolling(this) ? 192 : 0;
    });
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    const panel = await screen.findByRole('status');
    for (const name of ['Duplicates list', 'Errors list']) {
      const list = within(panel).getByRole('region', { name });
      expect(list).toHaveAttribute('tabindex', '0');
      expect(within(list).getByRole('list')).toBeInTheDocument();
    }
  });

  test('no duplicates and no errors: neither list is shown', async () => {
    api.on(
      UPLOAD,
      serverLike({
        message: 'All 5 rows stored',
        processed: 5,
        skipped: 0,
        duplicates: [],
        errors: [],
        duplicates_total: 0,
        errors_total: 0,
      }),
    );
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    const panel = await screen.findByRole('status');
    expect(panel).toHaveTextContent('All 5 rows stored');
    expect(within(panel).queryByRole('region')).not.toBeInTheDocument();
  });
});

describe('the error panel (docs/errors.md#upload)', () => {
  test("shows the server's error field", async () => {
    api.on(UPLOAD, [
      403,
      { error: 'Only admin and super_admin may upload', detail: 'Only admin and super_admin may upload (detail)' },
    ]);
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Only admin and super_admin may upload$/);
  });

  test.each([
    ['a body without an error field', [500, { detail: 'boom' }]],
    ['no body', [500]],
  ])("%s: 'Upload failed'", async (_case, reply) => {
    api.on(UPLOAD, reply as MockReply);
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Upload failed$/);
    expect(uploadButton()).not.toHaveAttribute('aria-disabled');
  });
});

describe('clearing (docs/screens.md#upload-csv-file)', () => {
  test('the result clears after 5 s', async () => {
    await uploadWithFakeTimers(csv(10));
    expect(await screen.findByRole('status')).toHaveTextContent('Upload complete');
    await act(async () => jest.advanceTimersByTimeAsync(4999));
    expect(screen.getByRole('status')).toBeInTheDocument();
    await act(async () => jest.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(progressBar()).not.toBeInTheDocument();
    expect(screen.getByText('shipments.csv')).toBeInTheDocument();
  });

  test('the error clears after 5 s', async () => {
    api.on(UPLOAD, [400, { error: 'Bad file' }]);
    await uploadWithFakeTimers(csv(10));
    expect(await screen.findByRole('alert')).toHaveTextContent('Bad file');
    await act(async () => jest.advanceTimersByTimeAsync(4999));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await act(async () => jest.advanceTimersByTimeAsync(1));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(uploadButton()).not.toHaveAttribute('aria-disabled');
  });

  test('choosing a new file resets the progress and the messages', async () => {
    render(<UploadPage />, { wrapper: withQueryClient() });
    await chooseAndUpload(csv(10, 'first.csv'));
    await screen.findByRole('status');
    expect(progressBar()).toBeInTheDocument();

    await pick(csv(10, 'second.csv'));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(progressBar()).not.toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Selected file' })).toHaveTextContent('second.csv');

    api.on(UPLOAD, [400, { error: 'Bad file' }]);
    fireEvent.click(uploadButton());
    await screen.findByRole('alert');
    await drop(csv(10, 'third.csv'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
