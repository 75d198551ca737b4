// CSV text for the report: RFC 4180 cells and lines, safe to open in a spreadsheet program.

/**
 * Opens the file so spreadsheet programs read it as UTF-8: without a byte order mark Excel
 * decodes a CSV in the system's legacy code page and garbles every non-ASCII character.
 */
export const UTF8_BOM = '\uFEFF';
export const LINE_END = '\r\n';

// CSV injection (OWASP): spreadsheet programs run a cell starting with one of these as a formula.
export const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: null and undefined are empty; a formula start is defused with a leading '. */
export function csvCell(value: string | null | undefined): string {
  if (!value) return '';
  const safe = FORMULA_START.has(value[0]!) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: readonly (string | null | undefined)[]): string {
  let line = csvCell(cells[0]);
  for (let i = 1; i < cells.length; i++) line += ',' + csvCell(cells[i]);
  return line + LINE_END;
}
