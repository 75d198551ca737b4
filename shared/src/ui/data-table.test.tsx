import { render, screen, within } from '@testing-library/react';
import { DataTable, type Column } from './data-table';

interface Fruit {
  name: string;
  count: number;
}

const COLUMNS: Column<Fruit>[] = [
  { header: 'Fruit', cell: (fruit) => fruit.name, rowHeader: true },
  { header: 'Count', cell: (fruit) => fruit.count },
];
const FRUITS: Fruit[] = [
  { name: 'Apple', count: 3 },
  { name: 'Pear', count: 5 },
];

function Fruits(props: Partial<React.ComponentProps<typeof DataTable<Fruit>>>) {
  return (
    <DataTable
      caption="Fruits"
      columns={COLUMNS}
      rows={FRUITS}
      rowKey={(fruit) => fruit.name}
      empty="No fruit"
      {...props}
    />
  );
}

const bodyRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);

describe('DataTable', () => {
  test('is named by its caption', () => {
    render(<Fruits captionClassName="vx-sr-only" />);
    expect(screen.getByRole('table', { name: 'Fruits' })).toBeInTheDocument();
    expect(screen.getByText('Fruits')).toHaveClass('vx-sr-only');
  });

  test('column headers have scope col, row headers scope row', () => {
    render(<Fruits />);
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual(['Fruit', 'Count']);
    for (const header of headers) expect(header).toHaveAttribute('scope', 'col');
    const apple = screen.getByRole('rowheader', { name: 'Apple' });
    expect(apple).toHaveAttribute('scope', 'row');
    expect(within(apple.closest('tr')!).getByRole('cell')).toHaveTextContent('3');
  });

  test('one row per item, with its attributes and what follows it', () => {
    render(
      <Fruits
        rowAttributes={(fruit) => ({ 'data-fruit': fruit.name, className: 'fruit' })}
        after={(fruit) =>
          fruit.name === 'Pear' ? (
            <tr>
              <td colSpan={2}>Pear details</td>
            </tr>
          ) : null
        }
      />,
    );
    const rows = bodyRows();
    expect(rows.map((row) => row.textContent)).toEqual(['Apple3', 'Pear5', 'Pear details']);
    expect(rows[0]).toHaveAttribute('data-fruit', 'Apple');
    expect(rows[0]).toHaveClass('fruit');
  });

  test('empty row: one cell across every column', () => {
    render(<Fruits rows={[]} noteClassName="fruit-note" />);
    const [row] = bodyRows();
    const cell = within(row!).getByRole('cell');
    expect(cell).toHaveTextContent('No fruit');
    expect(cell).toHaveAttribute('colspan', '2');
    expect(cell).toHaveClass('fruit-note');
    expect(screen.getByRole('table')).not.toHaveAttribute('aria-busy');
  });

  test('loading row: stands for the rows and marks the table busy', () => {
    render(<Fruits loading="Loading fruit…" />);
    expect(bodyRows().map((row) => row.textContent)).toEqual(['Loading fruit…']);
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  test('busy: rows stay, the table is marked busy', () => {
    render(<Fruits busy />);
    expect(bodyRows()).toHaveLength(2);
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
  });

  test('error row: announced in place of the rows', () => {
    render(<Fruits error="Failed to load fruit" />);
    expect(bodyRows()).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('Failed to load fruit');
    expect(screen.getByRole('alert').closest('td')).toHaveAttribute('colspan', '2');
  });

  test('scrolling, its box is a region named apart from a section its caption repeats', () => {
    // jsdom has no layout: the content is said to be wider than its box.
    jest.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(640);
    jest.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(320);
    try {
      render(
        <section aria-label="Fruits">
          <Fruits />
        </section>,
      );
      const box = screen.getByRole('region', { name: 'Fruits table' });
      expect(box).toHaveAttribute('tabindex', '0');
      expect(within(box).getByRole('table', { name: 'Fruits' })).toBeInTheDocument();
      expect(screen.getAllByRole('region').map((region) => region.getAttribute('aria-label'))).toEqual([
        'Fruits',
        'Fruits table',
      ]);
    } finally {
      jest.restoreAllMocks();
    }
  });

  test('in a scrolling box by default, alone without one', () => {
    const { container, rerender } = render(<Fruits />);
    expect(container.firstElementChild).toHaveClass('vx-table-wrap');
    rerender(<Fruits wrapClassName={false} />);
    expect(container.firstElementChild?.tagName).toBe('TABLE');
  });
});
