import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { choiceOrAny, DayFilter, FiltersForm, TextFilter, useTypedTexts } from './filters';

interface Applied {
  name: string;
  from: string;
  to: string;
}
const NONE: Applied = { name: '', from: '', to: '' };

function Filters({ applied, onApply }: { applied: Applied; onApply(next: Applied): void }) {
  const [replaced, setReplaced] = useState(0);
  const { texts, type, clear, anyText } = useTypedTexts({ name: applied.name }, () => setReplaced((n) => n + 1));
  const apply = (change: Partial<Applied> = {}) => onApply({ ...applied, name: texts.name.trim(), ...change });
  return (
    <>
      <FiltersForm
        onApply={() => apply()}
        canClear={applied.name !== '' || applied.from !== '' || anyText}
        onClear={() => {
          clear();
          onApply(NONE);
        }}
        typed={texts.name.trim() !== applied.name}
      >
        <TextFilter id="name" label="Name" value={texts.name} maxLength={20} onChange={(text) => type('name', text)} />
        <DayFilter id="from" label="From" value={applied.from} max={applied.to} onChange={(from) => apply({ from })} />
        <DayFilter id="to" label="To" value={applied.to} min={applied.from} onChange={(to) => apply({ to })} />
      </FiltersForm>
      <output>replaced {replaced}</output>
    </>
  );
}

function renderFilters(applied: Applied = NONE) {
  const onApply = jest.fn();
  const view = render(<Filters applied={applied} onApply={onApply} />);
  return {
    ...view,
    onApply,
    rerenderWith: (next: Applied) => view.rerender(<Filters applied={next} onApply={onApply} />),
  };
}

test('text typed waits for Apply, which the form says; Apply applies it without its spaces', () => {
  const { onApply } = renderFilters();
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: '  alice ' } });
  expect(onApply).not.toHaveBeenCalled();
  expect(screen.getByText('Press Apply to filter by the text typed.')).toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
  expect(onApply).toHaveBeenLastCalledWith({ name: 'alice', from: '', to: '' });
});

test('a day applies as soon as it changes, with the text typed so far', () => {
  const { onApply } = renderFilters();
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'bob' } });
  fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-02' } });
  expect(onApply).toHaveBeenLastCalledWith({ name: 'bob', from: '2026-11-02', to: '' });
});

test('a day typed from the keyboard applies once its year has four digits, never the year 2 on the way', () => {
  const { onApply } = renderFilters();
  const from = screen.getByLabelText('From');
  // What a date field reports as the year's digits come: 0002, 0020, 0202, then 2026.
  for (const day of ['0002-12-01', '0020-12-01', '0202-12-01']) {
    fireEvent.change(from, { target: { value: day } });
    expect(from).toHaveValue(day);
  }
  expect(onApply).not.toHaveBeenCalled();
  fireEvent.change(from, { target: { value: '2026-12-01' } });
  expect(onApply).toHaveBeenLastCalledWith({ name: '', from: '2026-12-01', to: '' });
});

test('a day left half typed applies nothing; a whole day is applied when the field is left', () => {
  const { onApply } = renderFilters({ name: '', from: '2026-11-02', to: '' });
  const from = screen.getByLabelText('From') as HTMLInputElement;
  // Half typed, a date field's value is empty and its validity says badInput: the day applied stays.
  const badInput = jest.spyOn(from, 'validity', 'get').mockReturnValue({ badInput: true } as ValidityState);
  fireEvent.change(from, { target: { value: '' } });
  fireEvent.blur(from);
  expect(onApply).not.toHaveBeenCalled();
  badInput.mockRestore();
  fireEvent.change(from, { target: { value: '0999-01-01' } });
  expect(onApply).not.toHaveBeenCalled();
  fireEvent.blur(from);
  expect(onApply).toHaveBeenLastCalledWith({ name: '', from: '0999-01-01', to: '' });
});

test('the ends of a range of days bound each other', () => {
  renderFilters({ name: '', from: '2026-11-02', to: '2026-11-20' });
  expect(screen.getByLabelText('From')).toHaveAttribute('max', '2026-11-20');
  expect(screen.getByLabelText('To')).toHaveAttribute('min', '2026-11-02');
});

test('filters applied from elsewhere replace the text typed, and the form is told', () => {
  const { rerenderWith } = renderFilters({ name: 'alice', from: '', to: '' });
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'typed' } });
  rerenderWith({ name: 'carol', from: '', to: '' });
  expect(screen.getByLabelText('Name')).toHaveValue('carol');
  expect(screen.getByText('replaced 1')).toBeInTheDocument();
  expect(screen.queryByText('Press Apply to filter by the text typed.')).not.toBeInTheDocument();
});

test('Clear filters is disabled with nothing applied or typed; it empties the form and the filters', () => {
  const { onApply } = renderFilters();
  const clearButton = screen.getByRole('button', { name: 'Clear filters' });
  expect(clearButton).toBeDisabled();
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
  expect(clearButton).toBeEnabled();
  clearButton.focus();
  fireEvent.click(clearButton);
  expect(screen.getByLabelText('Name')).toHaveValue('');
  expect(onApply).toHaveBeenLastCalledWith(NONE);
  // Disabled once cleared, it would drop the keyboard's focus to the page: the first filter takes it.
  expect(screen.getByLabelText('Name')).toHaveFocus();
});

test("the form is a landmark named 'Filters'", () => {
  renderFilters();
  expect(screen.getByRole('form', { name: 'Filters' })).toBeInTheDocument();
});

describe('choiceOrAny', () => {
  test("a URL's value the page offers is kept; another, or none, is '' (any)", () => {
    const kinds = ['user', 'brand'] as const;
    expect(choiceOrAny(kinds, 'brand')).toBe('brand');
    expect(choiceOrAny(kinds, 'Brand')).toBe('');
    expect(choiceOrAny(kinds, 'planet')).toBe('');
    expect(choiceOrAny(kinds, null)).toBe('');
    expect(choiceOrAny(kinds, undefined)).toBe('');
  });
});
