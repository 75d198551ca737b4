import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { SearchSelect, type SearchSelectProps } from './search-select';

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
    expect(await screen.findByRole('combobox', { name: 'Filter by hub...' })).toHaveAttribute(
      'placeholder',
      'Filter by hub...',
    );
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

  test('typing highlights the first option left: Enter selects it, as react-select does', async () => {
    const onValue = jest.fn();
    render(<Harness onValue={onValue} />);
    await userEvent.type(screen.getByRole('combobox'), 'bom');
    expect(screen.getByRole('option', { name: 'BOM02' })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('BOM02');
    expect(screen.getByRole('combobox')).toHaveValue('BOM02');
  });

  test('typing text that leaves no option, or erasing it, highlights nothing: Enter selects nothing', async () => {
    const onValue = jest.fn();
    render(<Harness onValue={onValue} />);
    await userEvent.type(screen.getByRole('combobox'), 'zzz{Enter}');
    await userEvent.clear(screen.getByRole('combobox'));
    await userEvent.keyboard('{Enter}');
    expect(onValue).not.toHaveBeenCalled();
  });

  test('Page Down and Page Up move the highlight by the page size, 5 by default, stopping at the ends', async () => {
    const many = Array.from({ length: 12 }, (_, i) => ({ value: `H${i}`, label: `Hub ${i}` }));
    const onValue = jest.fn();
    render(<Harness options={many} onValue={onValue} />);
    screen.getByRole('combobox').focus();
    await userEvent.keyboard('{ArrowDown}{PageDown}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('H5');
    await userEvent.keyboard('{ArrowDown}{PageDown}{PageDown}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('H11');
    await userEvent.keyboard('{ArrowDown}{PageUp}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('H6');
    await userEvent.keyboard('{ArrowDown}{PageUp}{PageUp}{Enter}');
    expect(onValue).toHaveBeenLastCalledWith('H0');
  });

  test('reopening after a selection lists every option, not only the selected label', async () => {
    render(<Harness value="DEL01" />);
    await userEvent.click(screen.getByRole('button', { name: /show options/i }));
    expect(screen.getAllByRole('option')).toHaveLength(3);
  });

  test("clicking into the selection's label selects it, so typing replaces it and filters", async () => {
    render(<Harness value="DEL01" />);
    const input = await screen.findByRole('combobox');
    await userEvent.click(input);
    expect([input as HTMLInputElement].map((i) => [i.selectionStart, i.selectionEnd])).toEqual([[0, 5]]);
    await userEvent.keyboard('bom');
    expect(input).toHaveValue('bom');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['BOM02']);
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

  test('the input follows a value the parent changes, even after menu events between a click and the parent taking it', async () => {
    // As in a browser: the closing menu reports the mouse leaving it in the same render in which
    // the parent takes the chosen value.
    let takeChosen = () => {};
    function LateParent() {
      const [value, setValue] = useState<string | null>(null);
      return (
        <>
          <SearchSelect
            options={options}
            placeholder="Filter by hub..."
            value={value}
            onChange={(v) => (takeChosen = () => setValue(v))}
          />
          <button type="button" onClick={() => setValue(null)}>
            Reset
          </button>
        </>
      );
    }
    render(<LateParent />);
    await userEvent.click(await screen.findByRole('combobox'));
    await userEvent.click(screen.getByRole('option', { name: 'BOM02' }));
    act(() => {
      fireEvent.mouseLeave(screen.getByRole('listbox', { hidden: true }));
      takeChosen();
    });
    expect(screen.getByRole('combobox')).toHaveValue('BOM02');
    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(screen.getByRole('combobox')).toHaveValue('');
  });

  test('typing keeps the selection while options are filtered here', async () => {
    const onValue = jest.fn();
    render(<Harness value="DEL01" onValue={onValue} />);
    await userEvent.type(screen.getByRole('combobox'), 'x');
    expect(onValue).not.toHaveBeenCalled();
  });
});

describe('SearchSelect with server-side search (onInputChange, filterOptions={false})', () => {
  test('onInputChange reports the text as the user types it', async () => {
    const onInputChange = jest.fn();
    render(<Harness onInputChange={onInputChange} />);
    await userEvent.type(screen.getByRole('combobox'), 'de');
    expect(onInputChange.mock.calls).toEqual([['d'], ['de']]);
  });

  test('choosing an option does not report its label as typed text', async () => {
    const onInputChange = jest.fn();
    render(<Harness onInputChange={onInputChange} />);
    await userEvent.click(screen.getByRole('combobox'));
    await userEvent.click(screen.getByRole('option', { name: 'BOM02' }));
    expect(onInputChange).not.toHaveBeenCalled();
  });

  test('with filterOptions={false} the options are shown as given, whatever is typed', async () => {
    render(<Harness filterOptions={false} />);
    await userEvent.type(screen.getByRole('combobox'), 'zzz');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All Hubs', 'DEL01', 'BOM02']);
  });

  test('with filterOptions={false}, typing clears the selection and keeps the typed text', async () => {
    const onValue = jest.fn();
    render(<Harness filterOptions={false} value="DEL01" onValue={onValue} />);
    // The click into the label selects it: the typed text replaces it and stays.
    await userEvent.type(screen.getByRole('combobox'), 'x');
    expect(onValue).toHaveBeenCalledWith(null);
    expect(screen.getByRole('combobox')).toHaveValue('x');
  });

  /** Options searched by a server: `answer` for the text typed, at once or `afterMs` later. */
  function ServerHarness({
    answer,
    afterMs,
    onValue,
  }: {
    answer: (text: string) => SearchSelectProps['options'];
    afterMs?: number;
    onValue: (v: string | null) => void;
  }) {
    const [results, setResults] = useState<SearchSelectProps['options']>([]);
    const search = (text: string) =>
      afterMs === undefined ? setResults(answer(text)) : setTimeout(() => setResults(answer(text)), afterMs);
    return <Harness options={results} filterOptions={false} onInputChange={search} onValue={onValue} />;
  }

  test('options answered for the typed text can be chosen by keyboard', async () => {
    const found = { b: [{ value: 'BOM02', label: 'BOM02' }], bo: [{ value: 'BOM02', label: 'BOM02' }] } as Record<
      string,
      SearchSelectProps['options']
    >;
    const onValue = jest.fn();
    render(<ServerHarness answer={(text) => found[text] ?? []} onValue={onValue} />);
    await userEvent.type(screen.getByRole('combobox'), 'bo');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['BOM02']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onValue).toHaveBeenCalledWith('BOM02');
    expect(screen.getByRole('combobox')).toHaveValue('BOM02');
  });

  test("the server's first option for the text typed is highlighted once it is in: Enter takes it", async () => {
    const onValue = jest.fn();
    // The answer comes after the typing, as a server's does.
    render(<ServerHarness answer={(text) => (text ? options.slice(1) : [])} afterMs={10} onValue={onValue} />);
    const input = await screen.findByRole('combobox');
    await userEvent.type(input, 'o');
    const first = await screen.findByRole('option', { name: 'DEL01' });
    await waitFor(() => expect(first).toHaveAttribute('aria-selected', 'true'));
    expect(input).toHaveAttribute('aria-activedescendant', first.id);
    await userEvent.keyboard('{Enter}');
    expect(onValue).toHaveBeenCalledWith('DEL01');
  });
});
