// The control under a paged list that reads its next page (docs/screens.md#tables): a button while
// more pages are left, saying so while one is on its way, and the next page's failure beside it. The
// button is a BusyButton while it cannot read, so that it keeps the focus of a keyboard user who
// pressed it.
import type { ReactNode } from 'react';
import { BusyButton } from './busy-button';
import './more-pages.css';

/** What the control reads of a TanStack infinite query's result. */
export interface NextPages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  /** An earlier list shown while another filter's first page loads: no next page of it is read. */
  isPlaceholderData?: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
}

export interface MorePagesProps {
  query: NextPages;
  /** Pages read so far: past the first, the control stays when none is left, saying `none`. */
  pages: number;
  texts: { more: string; loading: string; none?: string };
  /** What a failed next page says. */
  failure: (error: unknown) => string;
  className?: string;
  /** Shown beside the button (e.g. how many are listed). */
  children?: ReactNode;
}

export function MorePages({ query, pages, texts, failure, className, children }: MorePagesProps) {
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, isPlaceholderData, error } = query;
  if (!hasNextPage && !(texts.none && pages > 1)) return null;
  const unable = !hasNextPage || isFetchingNextPage || Boolean(isPlaceholderData);
  return (
    <div className={className ? `vx-more-pages ${className}` : 'vx-more-pages'}>
      <BusyButton className="vx-btn" busy={unable} onClick={() => void query.fetchNextPage()}>
        {isFetchingNextPage ? texts.loading : hasNextPage ? texts.more : texts.none}
      </BusyButton>
      {children}
      {isFetchNextPageError && (
        <span className="vx-error-text vx-more-pages__error" role="alert">
          {failure(error)}
        </span>
      )}
    </div>
  );
}
