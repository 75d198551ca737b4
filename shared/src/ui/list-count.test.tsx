import { render, screen } from '@testing-library/react';
import { ListCount, type ListCountProps } from './list-count';

function renderCount(props: ListCountProps) {
  const view = render(<ListCount {...props} />);
  const line = () => screen.getByTestId('count-line').parentElement!;
  const update = (next: ListCountProps) => view.rerender(<ListCount {...next} />);
  return { line, update };
}

const shown = (countOf: string | null, text: string): ListCountProps => ({
  countOf,
  text,
  children: <span data-testid="count-line">{text}</span>,
});

describe('ListCount', () => {
  test("announces a list's first count, not the changes live updates make to it", () => {
    const { line, update } = renderCount(shown('hub=blr01', '120 records'));
    expect(line()).toHaveAttribute('aria-live', 'polite');
    expect(line()).toHaveTextContent('120 records');

    update(shown('hub=blr01', '121 records'));
    expect(line()).toHaveAttribute('aria-live', 'off');
    expect(line()).toHaveTextContent('121 records');
    update(shown('hub=blr01', '122 records'));
    expect(line()).toHaveAttribute('aria-live', 'off');
  });

  test("another filter's count is announced once it is in, not while the previous one is kept", () => {
    const { line, update } = renderCount(shown('hub=blr01', '120 records'));
    update(shown('hub=blr01', '121 records'));
    // The filters changed: the previous count stays while the next is counted.
    update(shown(null, '121 records'));
    expect(line()).toHaveAttribute('aria-live', 'off');
    update(shown('hub=del02', '7 records'));
    expect(line()).toHaveAttribute('aria-live', 'polite');
    expect(line()).toHaveTextContent('7 records');
    update(shown('hub=del02', '8 records'));
    expect(line()).toHaveAttribute('aria-live', 'off');
  });

  test('the line is in the page before any count, so the first one is announced as a change', () => {
    const { container, rerender } = render(<ListCount countOf={null} text="" as="p" className="count" />);
    const line = container.querySelector('p.count');
    expect(line).toBeEmptyDOMElement();
    // Asked for, not in yet.
    rerender(<ListCount countOf="all" text="" as="p" className="count" />);
    rerender(<ListCount countOf="all" text="3 cases" as="p" className="count" />);
    expect(container.querySelector('p.count')).toBe(line);
    expect(line).toHaveAttribute('aria-live', 'polite');
    expect(line).toHaveTextContent('3 cases');
  });
});
