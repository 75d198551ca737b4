import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { SearchSelect, type SearchSelectProps } from './SearchSelect';

const options = [
  { value: 'all', label: 'All Hubs' },
  { value: 'DEL01', label: 'DEL01' },
  { value: 'BOM02', label: 'BOM02' },
];

function Harness(props: Partial<SearchSelectProps> & { onValue?: (v: string | null) => void }) {
  const [value, setValue] = useState<string | null>(props.value ?? null);
  return (
    <SearchSelect
      options={options}
      placeholder="Filter by hub..."
      {...props}
      value={value}
      onChange={(v) => {
        setValue(v);
        props.onValue?.(v);
      }}
    />
  );
}

describe('SearchSelect', () => {
  test('shows the placeholder and is named by it without a label', async () => {
    render(<Harness />);
    expect(await screen.findByRole('combobox', { name: 'Filter by hub...' })).toHaveAttribute('placeholder', 'Filter by hub...');
  });

  test('a visible label names the control', () => {
    render(<Harness label="Hub" />);
    expect(screen.getByRole('combobox', { name: 'Hub' })).toBeInTheDocument();
  });

  test('clicking an option selects it and shows its label', async () => {
    const onValue = jest.fn();
    render(<Harness onValue={onValue} />);
    await userEvent.click(screen.getByRole('combobox'));
    await userEvent.click(screen.getByRole('option', { name: 'BOM02' }));
    expect(onValue).toHaveBeenCalledWith('BOM02');
    expect(screen.getByRole('combobox')).toHaveValue('BOM02');
  });

  test('typing filters the options case-insensitively', async () => {
    render(<Harness />);
    await userEvent.type(screen.getByRole('combobox'), 'del');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['DEL01']);
  });

  test('typing text that matches nothing shows No options', async () => {
    render(<Harness />);
    await userEvent.type(screen.getByRole('combobox'), 'zzz');
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    expect(screen.getByText('No options')).toBeInTheDocument();
  });

  test('is keyboard operable: arrows move, Enter selects', async () => {
    const onValue = jest.fn();
    render(<Harness onValue={onValue} />);
    screen.getByRole('combobox').focus();
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onValue).toHaveBeenCalledWith('DEL01');
  });

  test('reopening after a selection lists every option, not only the selected label', async () => {
    render(<Harness value="DEL01" />);
    await userEvent.click(screen.getByRole('button', { name: /show options/i }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });

  test('a clearable select has a clear button that resets the value to null', async () => {
    const onValue = jest.fn();
    render(<Harness clearable value="DEL01" onValue={onValue} />);
    await userEvent.click(screen.getByRole('button', { name: /clear/i }));
    expect(onValue).toHaveBeenCalledWith(null);
    expect(screen.getByRole('combobox')).toHaveValue('');
    expect(screen.queryByRole('button', { name: /clear/i })).not.toBeInTheDocument();
  });

  test('no clear button unless clearable', () => {
    render(<Harness value="DEL01" />);
    expect(screen.queryByRole('button', { name: /clear/i })).not.toBeInTheDocument();
  });

  test('the menu height is capped at maxMenuHeight, 300 px by default', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('combobox'));
    expect(screen.getByRole('listbox')).toHaveStyle({ maxHeight: '300px' });
  });

  test('while loading, the menu says Loading... instead of options', async () => {
    render(<Harness loading />);
    await userEvent.click(screen.getByRole('combobox'));
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });
});
