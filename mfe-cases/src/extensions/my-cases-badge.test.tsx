// The top bar's My cases link (slot top-bar.item): the signed-in user's open cases, quiet at 0
// and on errors, read again on live `cases` events.
import { MemoryRouter, useSession } from '@veritas/shared';
import {
  FakeEventSource,
  mockApi,
  withFakeLiveStream,
  withQueryClient,
  type MockApi,
  type MockHandler,
  type MockReply,
} from '@veritas/shared/testing';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import MyCasesBadge, { MY_CASES_HREF } from './my-cases-badge';

let api: MockApi;
afterEach(() => api.restore());

/** The badge in a top bar, its totals answered by `reply`; `after` rendered next, after the badge. */
function renderBadge(reply: MockHandler, after?: ReactNode) {
  api = mockApi().on('GET api/cases/summary/', reply);
  return render(
    <MemoryRouter>
      <p>Top bar</p>
      <MyCasesBadge user="exec_demo" role="executive" />
      {after}
    </MemoryRouter>,
    { wrapper: withQueryClient() },
  );
}

const settled = () => waitFor(() => expect(api.requestsTo('GET api/cases/summary/')).toHaveLength(1));
const flush = () => act(() => new Promise((resolve) => setTimeout(resolve, 20)));

test('asks for the signed-in user’s totals (mine=1)', async () => {
  renderBadge([200, { open: 3, overdue: 1 }]);
  await settled();
  expect(api.requestsTo('GET api/cases/summary/')[0]!.config.params).toEqual({ mine: '1' });
});

test('links "My cases" with the open count to the queue of my cases, named "My cases: 3 open, 1 overdue"', async () => {
  renderBadge([200, { open: 3, overdue: 1 }]);
  const link = await screen.findByRole('link', { name: 'My cases: 3 open, 1 overdue' });
  expect(link).toHaveAttribute('href', MY_CASES_HREF);
  expect(MY_CASES_HREF).toBe('/Cases?assignee=me');
  expect(link).toHaveTextContent('My cases 3');
});

test('without overdue cases the name says only the open ones', async () => {
  renderBadge([200, { open: 2, overdue: 0 }]);
  expect(await screen.findByRole('link', { name: 'My cases: 2 open' })).toBeInTheDocument();
});

test('the badge is hidden at 0 open cases', async () => {
  renderBadge([200, { open: 0, overdue: 0 }]);
  await settled();
  await flush();
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
});

test('renders nothing on error, and nothing while loading', async () => {
  renderBadge([500, {}]);
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
  await settled();
  await flush();
  expect(screen.queryByRole('link')).not.toBeInTheDocument();
  expect(screen.getByText('Top bar')).toBeInTheDocument();
});

describe('live', () => {
  withFakeLiveStream();

  test('a live cases event reads the totals again', async () => {
    let open = 1;
    renderBadge(() => [200, { open, overdue: 0 }]);
    act(() =>
      useSession
        .getState()
        .setSession({ user: 'exec_demo', role: 'executive', hubCode: null, features: ['live-events'] }),
    );
    act(() => FakeEventSource.latest!.open());
    await screen.findByRole('link', { name: 'My cases: 1 open' });
    open = 2;
    act(() => FakeEventSource.latest!.emit('cases', { action: 'assigned', case: { id: 1 } }, 1));
    expect(await screen.findByRole('link', { name: 'My cases: 2 open' })).toBeInTheDocument();
  });

  /** Signed in with a live stream open, before the badge renders. */
  function liveFirst() {
    act(() =>
      useSession
        .getState()
        .setSession({ user: 'exec_demo', role: 'executive', hubCode: null, features: ['live-events'] }),
    );
    act(() => FakeEventSource.latest!.open());
  }
  const assigned = () => FakeEventSource.latest!.emit('cases', { action: 'assigned', case: { id: 1 } }, 1);

  test('a cases event between the first render (the totals asked) and the subscription reads them again', async () => {
    liveFirst();
    // The first answer was read before the assignment the event tells of.
    let calls = 0;
    let told = false;
    /** Rendered after the badge, before its effects run: the event comes in that window. */
    function EventAfterRender() {
      if (!told) {
        told = true;
        assigned();
      }
      return null;
    }
    renderBadge(() => [200, { open: calls++ === 0 ? 0 : 1, overdue: 0 }], <EventAfterRender />);
    expect(await screen.findByRole('link', { name: 'My cases: 1 open' })).toBeInTheDocument();
  });

  test('a cases event while the first totals are on their way, read before the change, reads them again', async () => {
    liveFirst();
    let answerFirst: (reply: MockReply) => void = () => {};
    let calls = 0;
    renderBadge(() =>
      calls++ === 0 ? new Promise<MockReply>((resolve) => (answerFirst = resolve)) : [200, { open: 1, overdue: 0 }],
    );
    await waitFor(() => expect(calls).toBe(1));
    act(assigned);
    act(() => answerFirst([200, { open: 0, overdue: 0 }]));
    expect(await screen.findByRole('link', { name: 'My cases: 1 open' })).toBeInTheDocument();
  });
});
