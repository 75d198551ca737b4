// Device Details' Cases section (slot device-details.section): the cases of the record's tracking
// ID, each linking to its Case page, or a line saying there is none; quiet on errors.
import { MemoryRouter, type CaseSummary } from '@veritas/shared';
import { makeRecord, mockApi, withQueryClient, type MockApi, type MockReply } from '@veritas/shared/testing';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import DeviceCases, { NO_CASE } from './device-cases';

let api: MockApi;
afterEach(() => api.restore());

const item = (change: Partial<CaseSummary>): CaseSummary => ({
  id: 1,
  tracking_id: 'TRK-0001',
  reason: 'E004',
  state: 'open',
  disposition: null,
  queue: 'HUB01',
  assignee: null,
  due_at: '2099-01-01T00:00:00.000Z',
  opened_at: '2025-01-01T00:00:00.000Z',
  resolved_at: null,
  version: 1,
  ...change,
});

function renderSection(reply: MockReply) {
  api = mockApi().on('GET api/cases/of/', reply);
  return render(
    <MemoryRouter>
      <DeviceCases record={makeRecord()} />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

test('the device section lists its cases: #id link to the Case page, reason, state, due or overdue', async () => {
  renderSection([
    200,
    {
      cases: [
        item({ id: 9, reason: 'E008', due_at: '2020-01-01T00:00:00.000Z' }),
        item({ id: 4, state: 'resolved', disposition: 'accepted' }),
      ],
    },
  ]);
  const section = await screen.findByRole('region', { name: 'Cases' });
  expect(api.requestsTo('GET api/cases/of/')[0]!.config.params).toEqual({ tracking_id: 'TRK-0001' });
  const items = within(section).getAllByRole('listitem');
  expect(within(items[0]!).getByRole('link', { name: '#9' })).toHaveAttribute('href', '/Case?id=9');
  expect(items[0]).toHaveTextContent('E008 · Device Mismatch detected.');
  expect(items[0]).toHaveTextContent('Open');
  expect(items[0]).toHaveTextContent('Overdue');
  expect(within(items[1]!).getByRole('link', { name: '#4' })).toHaveAttribute('href', '/Case?id=4');
  expect(items[1]).toHaveTextContent('Resolved · Accepted');
  expect(items[1]).not.toHaveTextContent('Overdue');
});

test('a device without cases says "No case for this device."', async () => {
  renderSection([200, { cases: [] }]);
  const section = await screen.findByRole('region', { name: 'Cases' });
  expect(section).toHaveTextContent(NO_CASE);
});

test('the section renders nothing on error', async () => {
  renderSection([403, {}]);
  await waitFor(() => expect(api.requestsTo('GET api/cases/of/')).toHaveLength(1));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByRole('region')).not.toBeInTheDocument();
});
