import { render, screen } from '@testing-library/react';
import { focusSectionHeading, focusWasDropped } from './focus-heading';

describe('focusWasDropped: the focus fell to the page when nothing, the body or a disabled control holds it', () => {
  test('the body holding the focus is a dropped focus', () => {
    render(<button type="button">Retry</button>);
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    expect(focusWasDropped()).toBe(true);
  });

  test('a control disabled with the change no longer holds it', () => {
    const { rerender } = render(<button type="button">Promote</button>);
    screen.getByRole('button', { name: 'Promote' }).focus();
    expect(focusWasDropped()).toBe(false);
    rerender(
      <button type="button" disabled>
        Promote
      </button>,
    );
    expect(focusWasDropped()).toBe(true);
  });

  test('a field or a link holding it is not a dropped focus', () => {
    render(
      <>
        <input aria-label="Reason" />
        <a href="#cases">Cases</a>
      </>,
    );
    screen.getByRole('textbox', { name: 'Reason' }).focus();
    expect(focusWasDropped()).toBe(false);
    screen.getByRole('link', { name: 'Cases' }).focus();
    expect(focusWasDropped()).toBe(false);
  });
});

describe('focusSectionHeading: the heading of the section around a place takes the focus', () => {
  test('the first heading of the enclosing section, made focusable from script only', () => {
    render(
      <section>
        <h2>Cases</h2>
        <p data-testid="place">A failed read</p>
      </section>,
    );
    focusSectionHeading(screen.getByTestId('place'));
    const heading = screen.getByRole('heading', { name: 'Cases' });
    expect(document.activeElement).toBe(heading);
    expect(heading.tabIndex).toBe(-1);
  });

  test('outside any section nothing happens', () => {
    render(<p data-testid="place">Alone</p>);
    focusSectionHeading(screen.getByTestId('place'));
    expect(document.activeElement).toBe(document.body);
  });
});
