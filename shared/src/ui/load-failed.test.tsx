import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadFailed, type LoadFailedProps } from './load-failed';

const message = (failure: unknown) => (failure instanceof Error ? failure.message : 'Failed');

function renderFailed(props: Partial<LoadFailedProps> = {}) {
  const all: LoadFailedProps = {
    failure: new Error('Failed to load the audit log'),
    fetching: false,
    message,
    ...props,
  };
  const view = render(<LoadFailed {...all} />);
  return { ...view, update: (more: Partial<LoadFailedProps>) => view.rerender(<LoadFailed {...all} {...more} />) };
}

describe('LoadFailed', () => {
  test('says why in an alert, and Retry reads again; nothing without a failure', async () => {
    const user = userEvent.setup();
    const retry = jest.fn();
    const { update } = renderFailed({ onRetry: retry });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load the audit log');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
    update({ failure: null });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('while the read runs again, the failure stays and Retry is busy, keeps the focus and takes no press', async () => {
    const user = userEvent.setup();
    const retry = jest.fn();
    const { update } = renderFailed({ onRetry: retry });
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    // TanStack Query clears the error of a query that never had data when it fetches again.
    update({ failure: null, fetching: true });
    const button = screen.getByRole('button', { name: 'Retry' });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load the audit log');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveFocus();
    await user.click(button);
    await user.keyboard('{Enter}');
    expect(retry).toHaveBeenCalledTimes(1);
    // The read succeeded: the failure is gone.
    update({ failure: null, fetching: false });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('when the read Retry asked for comes back, the keyboard’s focus goes to the heading of the section', async () => {
    const user = userEvent.setup();
    const props: LoadFailedProps = { failure: new Error('Failed'), fetching: false, message, onRetry: () => {} };
    const page = (more: Partial<LoadFailedProps>) => (
      <section>
        <h1>Cases</h1>
        <LoadFailed {...props} {...more} />
      </section>
    );
    const { rerender } = render(page({}));
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    rerender(page({ failure: null, fetching: true }));
    rerender(page({ failure: null, fetching: false }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Cases' })).toHaveFocus();
  });

  test('a read running with no failure before shows nothing', () => {
    renderFailed({ failure: null, fetching: true });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('without onRetry (a refusal trying again cannot change) the message stands alone', () => {
    renderFailed({ failure: new Error('Only admins can read the audit log.') });
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can read the audit log.');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
