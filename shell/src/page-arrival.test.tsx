import { MemoryRouter, Route, Routes, useDocumentTitle, useNavigate } from '@veritas/shared';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef, useState } from 'react';
import { ARRIVAL_MS, useFocusOnArrival, usePageTitle } from './page-arrival';

/** A page whose link leaves with it, as a menu item or a dialog's link does. */
function From() {
  const navigate = useNavigate();
  return (
    <>
      <h1>From</h1>
      <button type="button" onClick={() => navigate('/to')}>
        Go
      </button>
    </>
  );
}

/** A page that shows a loading heading, then its own once its data is in (`arrive`). */
let arrive: () => void;
function To() {
  usePageTitle('To page');
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    arrive = () => setLoaded(true);
  }, []);
  return loaded ? <h1>To, loaded</h1> : <h1>Loading…</h1>;
}

function Shell() {
  const main = useRef<HTMLElement>(null);
  useFocusOnArrival(main);
  return (
    <main ref={main}>
      <Routes>
        <Route path="/" element={<From />} />
        <Route path="/to" element={<To />} />
      </Routes>
    </main>
  );
}

const renderShell = () =>
  render(
    <MemoryRouter initialEntries={['/']}>
      <Shell />
    </MemoryRouter>,
  );

test('a page load keeps the focus where the browser has it', () => {
  renderShell();
  expect(document.body).toHaveFocus();
});

test("after a navigation that dropped the focus, the page's heading takes it, and its own once it replaces the loading one", async () => {
  renderShell();
  await userEvent.click(screen.getByRole('button', { name: 'Go' }));
  expect(screen.getByRole('heading', { name: 'Loading…' })).toHaveFocus();
  act(() => arrive());
  expect(screen.getByRole('heading', { name: 'To, loaded' })).toHaveFocus();
  expect(document.title).toBe('To page · Veritas');
});

test('once the user acts (a key), a heading shown later takes nothing', async () => {
  renderShell();
  await userEvent.click(screen.getByRole('button', { name: 'Go' }));
  await userEvent.keyboard('{Shift}');
  (document.activeElement as HTMLElement).blur();
  act(() => arrive());
  expect(document.body).toHaveFocus();
});

test(`${ARRIVAL_MS} ms after the navigation, a heading shown later takes nothing`, () => {
  jest.useFakeTimers();
  try {
    renderShell();
    act(() => screen.getByRole('button', { name: 'Go' }).click());
    (document.activeElement as HTMLElement).blur();
    act(() => jest.advanceTimersByTime(ARRIVAL_MS));
    act(() => arrive());
    expect(document.body).toHaveFocus();
  } finally {
    jest.useRealTimers();
  }
});

describe("the tab's title", () => {
  /** A route the shell names 'Case', whose page names itself 'Case #7' once its data is in. */
  function CaseRoute({ known }: { known: boolean }) {
    usePageTitle('Case');
    return <CasePage known={known} />;
  }
  function CasePage({ known }: { known: boolean }) {
    useDocumentTitle(known ? 'Case #7' : 'Case');
    return <h1>Case #7</h1>;
  }

  test("a page that names itself more precisely keeps its name, even shown in the shell's first render of the route", () => {
    const { rerender } = render(<CaseRoute known />);
    expect(document.title).toBe('Case #7 · Veritas');
    rerender(<CaseRoute known={false} />);
    expect(document.title).toBe('Case · Veritas');
    rerender(<CaseRoute known />);
    expect(document.title).toBe('Case #7 · Veritas');
  });
});
