import type { DeviceRecord } from '@veritas/shared';
import { makeRecord, mockApi, type MockApi, withQueryClient } from '@veritas/shared/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ListDevices from './list-devices';

const pending = makeRecord({
  id: 1,
  tracking_id: {
    tracking_id: 'TRK-PEND',
    hub_code: 'DEL01',
    created_date: '2025-03-01T10:00:00Z',
    device_type: 'smarttv',
  },
});
const submitted = makeRecord({
  id: 2,
  tracking_id: { tracking_id: 'TRK-SUBM', hub_code: 'BOM02', created_date: '2025-02-01T10:00:00Z', device_type: '' },
  is_submit: true,
  submit_time: '2025-03-05T10:00:00Z',
  submitted_by: { username: 'wm_ravi' },
  submitted_device_name: 'SM-S921B',
  submitted_manufacturer: 'samsung',
  device_result: 'passed',
});
const verified = makeRecord({
  id: 3,
  tracking_id: {
    tracking_id: 'TRK-VERI',
    hub_code: 'DEL01',
    created_date: '2025-01-01T10:00:00Z',
    device_type: 'laptop',
    is_Blindpick: true,
    Blind_brand: 'Acme',
    Blind_model: 'Blind X',
  },
  is_submit: true,
  submit_time: '2025-01-02T10:00:00Z',
  submitted_by: { username: 'wm_asha' },
  is_verified: true,
  verify_time: '2025-03-03T10:00:00Z',
  verified_by: { username: 'hub_meena' },
  device_result: 'E006',
});

let api: MockApi;

// jsdom has no layout: give the table's scroll container a height so the virtualizer renders rows.
beforeAll(() => jest.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600));
afterAll(() => jest.restoreAllMocks());

function serve(records: DeviceRecord[] | [number, unknown]) {
  api = mockApi().on(
    'GET api/get_status/',
    Array.isArray(records) && typeof records[0] === 'number' ? (records as [number, unknown]) : [200, records],
  );
}

afterEach(() => api.restore());

const rows = () => screen.queryAllByTestId('device-row');
const rowOf = (trackingId: string) => rows().find((r) => r.dataset.trackingId === trackingId)!;
const cell = (trackingId: string, column: string) =>
  rowOf(trackingId).querySelector<HTMLElement>(`[data-column="${column}"]`)!;
const trackingIds = () => rows().map((r) => r.dataset.trackingId);

async function renderLoaded(records: DeviceRecord[] = [pending, submitted, verified]) {
  serve(records);
  render(<ListDevices />, { wrapper: withQueryClient() });
  await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
}

describe('ListDevices', () => {
  test('shows a loading state while fetching, then the records from api/get_status/ fetched once', async () => {
    serve([pending]);
    render(<ListDevices />, { wrapper: withQueryClient() });
    expect(screen.getByRole('status')).toHaveTextContent('Loading devices…');
    expect(await screen.findByTestId('device-row')).toBeInTheDocument();
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
    expect(screen.getByTestId('record-count')).toHaveTextContent('1 record');
  });

  test('has the nine columns in their documented order (docs/screens.md#device-pick-list)', async () => {
    await renderLoaded();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Timestamp',
      'Tracking ID',
      'Hub Code',
      'Operator',
      'Expected Device',
      'Scanned Device',
      'Status',
      'Result',
      'Actions',
    ]);
  });

  test("an empty answer shows 'No expectations available'", async () => {
    await renderLoaded([]);
    expect(screen.getByText('No expectations available')).toBeInTheDocument();
    expect(screen.getByTestId('record-count')).toHaveTextContent('0 records');
    // A status message: announced as the filters change it.
    expect(screen.getByTestId('record-count').closest('[aria-live="polite"]')).not.toBeNull();
  });

  test("a failed fetch is only logged and shows the empty state, not a spinner, and no count (never a false '0 records')", async () => {
    const log = jest.spyOn(console, 'error').mockImplementation(() => {});
    serve([500, { detail: 'boom' }]);
    render(<ListDevices />, { wrapper: withQueryClient() });
    expect(await screen.findByText('No expectations available')).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.queryByTestId('record-count')).not.toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Failed to fetch device records', expect.anything());
    log.mockRestore();
  });

  test('rows are sorted newest first by the timestamp rule', async () => {
    await renderLoaded();
    // submitted 03-05 (submit time), verified 03-03 (verify time), pending 03-01 (created date)
    expect(trackingIds()).toEqual(['TRK-SUBM', 'TRK-VERI', 'TRK-PEND']);
  });

  test('the timestamp cell is coloured by kind: verified, submitted, created', async () => {
    await renderLoaded();
    const kindOf = (id: string) => cell(id, 'timestamp');
    expect(kindOf('TRK-VERI')).toHaveClass('dl-ts--verified');
    expect(kindOf('TRK-SUBM')).toHaveClass('dl-ts--submitted');
    expect(kindOf('TRK-PEND')).toHaveClass('dl-ts--created');
    expect(kindOf('TRK-PEND')).toHaveTextContent(/^\d{2}\/\d{2}\/2025, \d{2}:\d{2} [AP]M$/);
  });

  test('cells show hub, operator, status and N/A for a missing operator and scanned device', async () => {
    await renderLoaded();
    const cells = (id: string) =>
      within(rowOf(id))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(cells('TRK-PEND').slice(1, 7)).toEqual(['TRK-PEND', 'DEL01', 'N/A', expect.any(String), 'N/A', 'Pending']);
    expect(cells('TRK-SUBM').slice(1, 7)).toEqual([
      'TRK-SUBM',
      'BOM02',
      'wm_ravi',
      expect.any(String),
      'SM-S921Bsamsung',
      'Submitted for verification',
    ]);
    expect(cells('TRK-VERI')[6]).toBe('verified at hub');
  });

  test('expected device shows the type icon, model name and brand; blind picks show blind brand and model', async () => {
    await renderLoaded();
    const expected = (id: string) => cell(id, 'expected');
    expect(within(expected('TRK-PEND')).getByRole('img', { name: 'Smart TV' })).toBeInTheDocument();
    expect(expected('TRK-PEND')).toHaveTextContent('Galaxy S24Samsung');
    expect(within(expected('TRK-VERI')).getByRole('img', { name: 'Laptop' })).toBeInTheDocument();
    expect(expected('TRK-VERI')).toHaveTextContent('Blind XAcme');
    expect(within(expected('TRK-SUBM')).getByRole('img', { name: 'Device' })).toHaveAttribute(
      'data-device-type',
      'generic',
    );
  });

  test('result shows a pass mark for passed, a red cross with the code for E…, nothing before submission', async () => {
    await renderLoaded();
    const result = (id: string) => cell(id, 'result');
    expect(within(result('TRK-SUBM')).getByRole('img', { name: 'Passed' })).toBeInTheDocument();
    expect(within(result('TRK-VERI')).getByRole('img', { name: 'Failed' })).toBeInTheDocument();
    expect(result('TRK-VERI')).toHaveTextContent('E006');
    expect(result('TRK-PEND')).toBeEmptyDOMElement();
  });

  test('the tracking id filter narrows the rows in memory, without refetching', async () => {
    await renderLoaded();
    await userEvent.type(screen.getByPlaceholderText('Filter by tracking id...'), 'veri');
    await waitFor(() => expect(trackingIds()).toEqual(['TRK-VERI']));
    expect(screen.getByTestId('record-count')).toHaveTextContent('1 record');
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });

  test('the clear button empties the tracking id filter and shows every row again', async () => {
    await renderLoaded();
    const input = screen.getByPlaceholderText('Filter by tracking id...');
    expect(screen.queryByRole('button', { name: 'Clear tracking id filter' })).not.toBeInTheDocument();
    await userEvent.type(input, 'nothing-matches');
    await waitFor(() => expect(screen.getByText('No expectations available')).toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Clear tracking id filter' }));
    expect(input).toHaveValue('');
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  test('clearing the filter from the keyboard keeps the focus, in the box (the button leaves with the text)', async () => {
    await renderLoaded();
    const input = screen.getByPlaceholderText('Filter by tracking id...');
    await userEvent.type(input, 'veri');
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Clear tracking id filter' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(input).toHaveValue('');
    expect(input).toHaveFocus();
  });

  test("the hub dropdown offers 'All Hubs' first, then the distinct hub codes", async () => {
    await renderLoaded();
    const hub = screen.getByRole('combobox', { name: 'Filter by hub' });
    expect(hub).toHaveAttribute('placeholder', 'Filter by hub...');
    await userEvent.click(hub);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Hubs', 'BOM02', 'DEL01']);
  });

  test('choosing a hub filters the rows in memory; All Hubs shows them all again', async () => {
    await renderLoaded();
    const hub = screen.getByRole('combobox', { name: 'Filter by hub' });
    await userEvent.click(hub);
    await userEvent.click(screen.getByRole('option', { name: 'DEL01' }));
    await waitFor(() => expect(trackingIds()).toEqual(['TRK-VERI', 'TRK-PEND']));
    await userEvent.click(hub);
    await userEvent.click(screen.getByRole('option', { name: 'All Hubs' }));
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(api.requestsTo('GET api/get_status/')).toHaveLength(1);
  });

  test("each row's 'See Details' is named for its row, its visible text first (label in name), not one name repeated", async () => {
    await renderLoaded();
    for (const id of ['TRK-PEND', 'TRK-SUBM', 'TRK-VERI']) {
      const button = within(rowOf(id)).getByRole('button', { name: `See Details of ${id}` });
      expect(button).toHaveTextContent(/^See Details$/);
    }
    expect(screen.queryByRole('button', { name: 'See Details' })).not.toBeInTheDocument();
  });

  test("'See Details' opens the Device Details modal with the three-step timeline, N/A for steps not reached", async () => {
    await renderLoaded();
    await userEvent.click(screen.getByRole('button', { name: 'See Details of TRK-VERI' }));
    const dialog = screen.getByRole('dialog', { name: 'Device Details' });
    const steps = within(dialog).getAllByTestId('timeline-step');
    expect(steps.map((s) => s.querySelector('.dl-timeline__label')?.textContent)).toEqual([
      'Submitted',
      'Verified at Hub',
      'Verified at RC',
    ]);
    expect(steps[0]).toHaveTextContent(/01\/02\/2025, \d{2}:\d{2} [AP]Mby wm_asha/);
    expect(steps[1]).toHaveTextContent(/03\/03\/2025, \d{2}:\d{2} [AP]Mby hub_meena/);
    expect(steps[2]).toHaveTextContent('Verified at RCN/A');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  test('a pending record shows every timeline step as N/A', async () => {
    await renderLoaded();
    await userEvent.click(screen.getByRole('button', { name: 'See Details of TRK-PEND' }));
    const steps = within(screen.getByRole('dialog')).getAllByTestId('timeline-step');
    expect(steps.map((s) => s.dataset.reached)).toEqual(['false', 'false', 'false']);
    steps.forEach((s) => expect(s).toHaveTextContent(/N\/A$/));
  });

  test('with many records only the rows in view plus overscan are in the DOM (virtualized)', async () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      makeRecord({
        id: i + 1,
        tracking_id: {
          tracking_id: `TRK-${i}`,
          created_date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
        },
      }),
    );
    await renderLoaded(many);
    expect(screen.getByTestId('record-count')).toHaveTextContent('5000 records');
    expect(rows().length).toBeGreaterThan(5);
    expect(rows().length).toBeLessThan(40);
    expect(trackingIds()[0]).toBe('TRK-4999');
  });
});
