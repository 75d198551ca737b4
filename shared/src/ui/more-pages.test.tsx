import { fireEvent, render, screen } from '@testing-library/react';
import { MorePages, type NextPages } from './more-pages';

const TEXTS = { more: 'Show older entries', loading: 'Loading older entries…', none: 'No older entries' };

function renderMore(
  query: Partial<NextPages>,
  pages = 1,
  texts: { more: string; loading: string; none?: string } = TEXTS,
) {
  const fetchNextPage = jest.fn(() => Promise.resolve());
  const next: NextPages = {
    hasNextPage: true,
    isFetchingNextPage: false,
    isFetchNextPageError: false,
    error: null,
    fetchNextPage,
    ...query,
  };
  const view = render(
    <MorePages query={next} pages={pages} texts={texts} failure={(error) => `failed: ${String(error)}`} />,
  );
  return { ...view, fetchNextPage };
}

test('a list with a next page offers to read it, and a press reads it', () => {
  const { fetchNextPage } = renderMore({});
  fireEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
  expect(fetchNextPage).toHaveBeenCalledTimes(1);
});

test('a page on its way: the button says so, is aria-disabled (keeping the focus) and reads nothing more', () => {
  const { fetchNextPage } = renderMore({ isFetchingNextPage: true });
  const button = screen.getByRole('button', { name: 'Loading older entries…' });
  expect(button).toHaveAttribute('aria-disabled', 'true');
  expect(button).not.toBeDisabled();
  fireEvent.click(button);
  expect(fetchNextPage).not.toHaveBeenCalled();
});

test("another filter's first page loading behind the earlier list: no next page of that list is read", () => {
  const { fetchNextPage } = renderMore({ isPlaceholderData: true });
  fireEvent.click(screen.getByRole('button', { name: 'Show older entries' }));
  expect(fetchNextPage).not.toHaveBeenCalled();
});

test('a single page with none after it: no control at all', () => {
  const { container } = renderMore({ hasNextPage: false }, 1);
  expect(container).toBeEmptyDOMElement();
});

test('pages past the first with none left: the button stays, says so and reads nothing', () => {
  const { fetchNextPage } = renderMore({ hasNextPage: false }, 3);
  const button = screen.getByRole('button', { name: 'No older entries' });
  expect(button).toHaveAttribute('aria-disabled', 'true');
  fireEvent.click(button);
  expect(fetchNextPage).not.toHaveBeenCalled();
});

test('a list that has no words for none left drops the control once the last page is read', () => {
  const { container } = renderMore({ hasNextPage: false }, 3, { more: 'Load more', loading: 'Loading more…' });
  expect(container).toBeEmptyDOMElement();
});

test('a failed next page is announced beside the button, in the words the page chose', () => {
  renderMore({ isFetchNextPageError: true, error: 'boom' }, 2);
  expect(screen.getByRole('alert')).toHaveTextContent('failed: boom');
  expect(screen.getByRole('button', { name: 'Show older entries' })).not.toHaveAttribute('aria-disabled');
});
