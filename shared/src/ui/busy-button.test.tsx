import { fireEvent, render, screen } from '@testing-library/react';
import { BusyButton } from './busy-button';

describe('BusyButton: a button whose call is under way keeps the focus and takes no press', () => {
  test('busy, it is aria-disabled, not disabled, and keeps the focus', () => {
    const { rerender } = render(<BusyButton busy={false}>Save</BusyButton>);
    const button = screen.getByRole('button', { name: 'Save' });
    button.focus();
    rerender(<BusyButton busy>Save</BusyButton>);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  test('not busy, it has no aria-disabled and its press reaches onClick', () => {
    const onClick = jest.fn();
    render(
      <BusyButton busy={false} onClick={onClick}>
        Save
      </BusyButton>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.hasAttribute('aria-disabled')).toBe(false);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  test('a press while busy reaches neither onClick nor the form', () => {
    const onClick = jest.fn();
    const onSubmit = jest.fn((event: { preventDefault(): void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <BusyButton busy type="submit" onClick={onClick}>
          Create
        </BusyButton>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(onClick).not.toHaveBeenCalled();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test('it is a plain button unless it says submit: a press in a form submits nothing', () => {
    const onSubmit = jest.fn((event: { preventDefault(): void }) => event.preventDefault());
    render(
      <form onSubmit={onSubmit}>
        <BusyButton busy={false}>Retry</BusyButton>
      </form>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
