import { toast } from '@veritas/shared';
import { mockApi, type MockApi, type MockReply, type RecordedRequest } from '@veritas/shared/testing';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import DownloadPage from './download-page';
import { recordDownloads, type DownloadRecorder } from './testing/downloads';

const REPORT = 'POST api/generate_csv/';
const TODAY = '2025-06-15';
const FAILED = 'Failed to download CSV. Please try again.';

type ProgressEvent = Parameters<NonNullable<RecordedRequest['config']['onDownloadProgress']>>[0];

let api: MockApi;
let downloads: DownloadRecorder;
let toastError: jest.SpyInstance;

beforeEach(() => {
  // Only the clock is faked: today is 15 June 2025, local time.
  jest.useFakeTimers({
    now: new Date(2025, 5, 15, 9, 30),
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  api = mockApi().on(REPORT, [200, new Blob(['tracking_id\n'], { type: 'text/csv' })]);
  downloads = recordDownloads();
  toastError = jest.spyOn(toast, 'error');
});
afterEach(() => {
  api.restore();
  downloads.restore();
  toastError.mockRestore();
  jest.useRealTimers();
});

const startInput = () => screen.getByLabelText('Start Date');
const endInput = () => screen.getByLabelText('End Date');
const downloadButton = () => screen.getByRole('button', { name: 'Download CSV' });

function setDate(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

function choose(start: string, end: string) {
  setDate(startInput(), start);
  setDate(endInput(), end);
}

/** Holds the report's answer until the test releases it. */
function heldReport(reply: MockReply) {
  let request: RecordedRequest | undefined;
  let answer: (() => void) | undefined;
  api.on(REPORT, (r) => {
    request = r;
    return new Promise<MockReply>((resolve) => (answer = () => resolve(reply)));
  });
  return {
    get request() {
      return request;
    },
    async progress(event: Partial<ProgressEvent>) {
      await act(async () => request!.config.onDownloadProgress!(event as ProgressEvent));
    },
    async release() {
      await act(async () => answer!());
    },
  };
}

describe('the pickers (docs/screens.md#download-data)', () => {
  test('Start Date and End Date are labelled date pickers, both with max = today', () => {
    render(<DownloadPage />);
    expect(startInput()).toHaveAttribute('type', 'date');
    expect(endInput()).toHaveAttribute('type', 'date');
    expect(startInput()).toHaveAttribute('max', TODAY);
    expect(endInput()).toHaveAttribute('max', TODAY);
  });

  test('the end picker has min = the chosen start', () => {
    render(<DownloadPage />);
    expect(endInput()).not.toHaveAttribute('min');
    setDate(startInput(), '2025-06-03');
    expect(endInput()).toHaveAttribute('min', '2025-06-03');
  });

  test('today is the local calendar day', () => {
    jest.setSystemTime(new Date(2025, 11, 31, 23, 59));
    render(<DownloadPage />);
    expect(endInput()).toHaveAttribute('max', '2025-12-31');
  });

  test('typing the dates works like picking them', async () => {
    render(<DownloadPage />);
    const user = userEvent.setup();
    await user.type(startInput(), '2025-06-01');
    await user.type(endInput(), '2025-06-10');
    expect(downloadButton()).toBeEnabled();
  });
});

describe('date rules and the disabled button (docs/errors.md#report-download)', () => {
  test("with no dates yet, the button is disabled and 'Both start and end dates are required' says why, as a hint", () => {
    render(<DownloadPage />);
    expect(downloadButton()).toBeDisabled();
    expect(screen.getByText('Both start and end dates are required')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('with only one date, the button stays disabled with the same hint', () => {
    render(<DownloadPage />);
    setDate(startInput(), '2025-06-01');
    expect(downloadButton()).toBeDisabled();
    expect(screen.getByText('Both start and end dates are required')).toBeInTheDocument();
  });

  test("clearing a date shows 'Both start and end dates are required' as an error", () => {
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-10');
    expect(downloadButton()).toBeEnabled();
    setDate(endInput(), '');
    expect(screen.getByRole('alert')).toHaveTextContent(/^Both start and end dates are required$/);
    expect(downloadButton()).toBeDisabled();
  });

  test("an end later than today: 'End date cannot be later than today'", () => {
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-16');
    expect(screen.getByRole('alert')).toHaveTextContent(/^End date cannot be later than today$/);
    expect(endInput()).toHaveAttribute('aria-invalid', 'true');
    expect(downloadButton()).toBeDisabled();
  });

  test("an end before the start: 'End date cannot be before start date'", () => {
    render(<DownloadPage />);
    choose('2025-06-10', '2025-06-09');
    expect(screen.getByRole('alert')).toHaveTextContent(/^End date cannot be before start date$/);
    expect(endInput()).toHaveAttribute('aria-invalid', 'true');
    expect(downloadButton()).toBeDisabled();
  });

  test("a start later than the end: 'Start date cannot be later than end date'", () => {
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-05');
    setDate(startInput(), '2025-06-07');
    expect(screen.getByRole('alert')).toHaveTextContent(/^Start date cannot be later than end date$/);
    expect(startInput()).toHaveAttribute('aria-invalid', 'true');
    expect(downloadButton()).toBeDisabled();
  });

  test('correcting a date removes the message and enables the button', () => {
    render(<DownloadPage />);
    choose('2025-06-10', '2025-06-09');
    setDate(endInput(), '2025-06-12');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/cannot|required/)).not.toBeInTheDocument();
    expect(endInput()).not.toHaveAttribute('aria-invalid');
    expect(downloadButton()).toBeEnabled();
  });
});

describe('downloading (docs/screens.md#download-data)', () => {
  test('POSTs {start_date, end_date} for a blob and saves it as report_{start}_{end}.csv', async () => {
    const csv = new Blob(['tracking_id,hub_code\nT1,BLR01\n'], { type: 'text/csv' });
    api.on(REPORT, [200, csv]);
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-10');
    fireEvent.click(downloadButton());

    await waitFor(() => expect(downloads.saved).toHaveLength(1));
    const [request] = api.requestsTo(REPORT);
    expect(request?.body).toEqual({ start_date: '2025-06-01', end_date: '2025-06-10' });
    expect(request?.config.responseType).toBe('blob');
    expect(downloads.saved[0]).toEqual({
      fileName: 'report_2025-06-01_2025-06-10.csv',
      href: expect.stringMatching(/^blob:/),
      blob: csv,
    });
    expect(downloadButton()).toBeEnabled();
    expect(toastError).not.toHaveBeenCalled();
  });

  test("while downloading the button is marked unavailable, keeps the focus, and 'Downloading... N%' shows when the total is known (docs/screens.md#buttons)", async () => {
    const report = heldReport([200, new Blob(['x'])]);
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-10');
    fireEvent.click(downloadButton());

    await waitFor(() => expect(report.request).toBeDefined());
    expect(downloadButton()).toHaveAttribute('aria-disabled', 'true');
    expect(downloadButton()).toBeEnabled();
    fireEvent.click(downloadButton());
    expect(api.requestsTo(REPORT)).toHaveLength(1);
    expect(screen.getByText('Downloading...')).toBeInTheDocument();

    await report.progress({ loaded: 256, total: 1024 });
    expect(screen.getByText('Downloading... 25%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');

    await report.release();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(downloadButton()).not.toHaveAttribute('aria-disabled');
    expect(downloads.saved).toHaveLength(1);
  });

  test('a streamed report without a length shows the amount received', async () => {
    const report = heldReport([200, new Blob(['x'])]);
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-10');
    fireEvent.click(downloadButton());
    await waitFor(() => expect(report.request).toBeDefined());

    await report.progress({ loaded: 1.2 * 1024 * 1024 });
    expect(screen.getByText('Downloading... 1.2 MB')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).not.toHaveAttribute('aria-valuenow');
    await report.progress({ loaded: 3 * 1024 + 400 });
    expect(screen.getByText('Downloading... 3.4 KB')).toBeInTheDocument();
    await report.release();
  });

  test.each([
    ['a server error', [500, new Blob(['{"detail":"boom"}'])]],
    ['a refusal', [403, new Blob(['{"detail":"no"}'])]],
  ])(`%s: '${FAILED}' as a toast and inline, and the button comes back`, async (_case, reply) => {
    api.on(REPORT, reply as MockReply);
    render(<DownloadPage />);
    choose('2025-06-01', '2025-06-10');
    fireEvent.click(downloadButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(FAILED);
    expect(toastError).toHaveBeenCalledWith(FAILED);
    expect(downloadButton()).toBeEnabled();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(downloads.saved).toHaveLength(0);

    setDate(endInput(), '2025-06-11');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
