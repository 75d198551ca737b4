// The Dashboard's case tiles (slot dashboard.tile): open and overdue cases of the hub, linking to
// the queue with that hub; quiet on errors.
import { MemoryRouter } from '@veritas/shared';
import { mockApi, withQueryClient, type MockApi, type MockReply } from '@veritas/shared/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import CaseTiles from './case-tiles';

let api: MockApi;
afterEach(() => api.restore());

function renderTiles(hub: string, reply: MockReply = [200, { open: 12, overdue: 4 }]) {
  api = mockApi().on('GET api/cases/summary/', reply);
  return render(
    <MemoryRouter>
      <CaseTiles hub={hub} timeframe="last30" />
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

test('the tiles link to the queue with the hub: Open cases and Overdue cases (&overdue=1)', async () => {
  renderTiles('HUB01');
  const open = await screen.findByRole('link', { name: /Open cases/ });
  expect(open).toHaveAttribute('href', '/Cases?queue=HUB01');
  expect(open).toHaveTextContent('12');
  const overdue = screen.getByRole('link', { name: /Overdue cases/ });
  expect(overdue).toHaveAttribute('href', '/Cases?queue=HUB01&overdue=1');
  expect(overdue).toHaveTextContent('4');
  expect(api.requestsTo('GET api/cases/summary/')[0]!.config.params).toEqual({ hub: 'HUB01' });
});

test('for all hubs the tiles link to every queue', async () => {
  renderTiles('all');
  expect(await screen.findByRole('link', { name: /Open cases/ })).toHaveAttribute('href', '/Cases');
  expect(screen.getByRole('link', { name: /Overdue cases/ })).toHaveAttribute('href', '/Cases?overdue=1');
});

test('the tiles look like the Dashboard’s own (vx-card db-tile, db-tile__value)', async () => {
  renderTiles('HUB01');
  const open = await screen.findByRole('link', { name: /Open cases/ });
  expect(open).toHaveClass('vx-card', 'db-tile');
  expect(screen.getByTestId('tile-open-cases')).toHaveClass('db-tile__value');
});

test('the tiles render nothing on error', async () => {
  renderTiles('HUB01', [500, {}]);
  await waitFor(() => expect(api.requestsTo('GET api/cases/summary/')).toHaveLength(1));
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
});
