// A streaming RFC 4180 record reader for uploaded CSV text: decoded pieces in, records out.
//
// Not csv-parse: after an unbalanced quote csv-parse cannot resynchronise (its docs say
// skip_records_with_error only suits data without quoted newlines), and an upload must keep every
// good row after a bad one and report exact row numbers. Here a record with a syntax error is
// reported, and reading resumes at the physical line after that record's first line, so the lines
// a stray quote swallowed are read again as the rows they are.
import { INVALID_UTF8 } from './utf8-text';

/** A row holding a NUL character (U+0000) in any of its fields. */
export const NUL_IN_ROW = 'Row contains a NUL character';

/** Longer records are errors: it bounds the text held while looking for a record's end. */
export const MAX_RECORD_CHARS = 1_048_576;

export type CsvRecord = { fields: string[]; firstLine: number } | { error: string; firstLine: number };

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

const COMPLETE = 0;
const NEED_MORE = 1;
const TEXT_AFTER_QUOTE = 2;
const OPEN_QUOTE = 3;

const NOT_FOUND = Number.POSITIVE_INFINITY;

function find(text: string, search: string, from: number): number {
  const at = text.indexOf(search, from);
  return at === -1 ? NOT_FOUND : at;
}

/** Spreadsheet exports leave lines of empty cells (",,,"): they count as blank lines. */
function isBlank(fields: string[]): boolean {
  for (const field of fields) if (field.length > 0 && field.trim().length > 0) return false;
  return true;
}

/**
 * Reads comma-separated records (CRLF or LF, quotes doubled inside quoted fields). The first
 * non-blank record is the header, whose field count every later record must have. Blank records
 * are skipped. A record is yielded as an error when text follows a closing quote, a quote is never
 * closed, it is longer than MAX_RECORD_CHARS, it spans lines with the wrong field count (these four
 * resume on the line after its first), it holds INVALID_UTF8 (where the decoder found bytes that
 * are not UTF-8) or it has the wrong field count. Feed decoded text with push() and finish with
 * end(); both yield lazily.
 */
export class CsvRecordReader {
  private text = '';
  /** Start of the current record in text. */
  private pos = 0;
  /** Physical line (1-based) where the current record starts. */
  private line = 1;
  /** The rest of a bad record's first line went past the text received so far: drop up to its end. */
  private skippingLine = false;
  private columns: number | undefined;
  // First comma, line feed and INVALID_UTF8 at or after positions already passed (NOT_FOUND: none
  // in text): each search covers new ground, so scanning stays linear.
  private nextComma = -1;
  private nextNewline = -1;
  private nextInvalid = -1;
  private nextNul = -1;
  // Set by parseRecord when it completes a record.
  private fields: string[] = [];
  private recordEnd = 0;
  private quotedNewlines = 0;
  private lineBreaks = 0;

  *push(piece: string): Generator<CsvRecord> {
    if (this.skippingLine) {
      const newline = piece.indexOf('\n');
      if (newline === -1) return;
      piece = piece.slice(newline + 1);
      this.skippingLine = false;
    }
    this.text = this.pos < this.text.length ? this.text.slice(this.pos) + piece : piece;
    this.pos = 0;
    this.forgetSearches();
    yield* this.records(false);
  }

  *end(): Generator<CsvRecord> {
    // The incomplete record is parsed again from its start.
    this.forgetSearches();
    if (!this.skippingLine) yield* this.records(true);
    this.text = '';
    this.pos = 0;
  }

  private forgetSearches() {
    this.nextComma = this.nextNewline = this.nextInvalid = this.nextNul = -1;
  }

  private *records(final: boolean): Generator<CsvRecord> {
    while (this.pos < this.text.length) {
      const start = this.pos;
      const firstLine = this.line;
      const outcome = this.parseRecord(final);
      if (outcome === NEED_MORE) {
        if (this.text.length - start <= MAX_RECORD_CHARS) return;
        yield { error: tooLong(firstLine), firstLine };
        this.resumeAfterFirstLine(start, firstLine, final);
        continue;
      }
      if (outcome === TEXT_AFTER_QUOTE || outcome === OPEN_QUOTE) {
        const problem = outcome === OPEN_QUOTE ? 'a quoted field is never closed' : 'text follows a closing quote';
        yield { error: `Invalid quoting in the row starting on line ${firstLine}: ${problem}`, firstLine };
        this.resumeAfterFirstLine(start, firstLine, final);
        continue;
      }
      const { fields, recordEnd: end, columns } = this;
      if (end - start > MAX_RECORD_CHARS) {
        yield { error: tooLong(firstLine), firstLine };
        this.resumeAfterFirstLine(start, firstLine, final);
        continue;
      }
      if (columns !== undefined && fields.length !== columns && this.quotedNewlines > 0) {
        // Most likely an unbalanced quote that swallowed the following lines: read them again.
        const lastLine = firstLine + this.quotedNewlines;
        yield {
          error: `Invalid quoting: a quoted field joins lines ${firstLine}–${lastLine} into one row of ${fields.length} columns instead of ${columns}`,
          firstLine,
        };
        this.resumeAfterFirstLine(start, firstLine, final);
        continue;
      }
      this.pos = end;
      this.line += this.lineBreaks;
      if (this.nextInvalid < start) this.nextInvalid = find(this.text, INVALID_UTF8, start);
      if (this.nextInvalid < end) {
        yield { error: 'Row contains bytes that are not valid UTF-8', firstLine };
        continue;
      }
      // PostgreSQL cannot store a NUL (its COPY would fail the whole batch), SQLite's search cuts
      // the text at it: the row is an error on either engine.
      if (this.nextNul < start) this.nextNul = find(this.text, '\0', start);
      if (this.nextNul < end) {
        yield { error: NUL_IN_ROW, firstLine };
        continue;
      }
      if (isBlank(fields)) continue;
      if (columns === undefined) this.columns = fields.length;
      else if (fields.length !== columns) {
        yield { error: `Expected ${columns} columns, found ${fields.length}`, firstLine };
        continue;
      }
      yield { fields, firstLine };
    }
  }

  private resumeAfterFirstLine(start: number, firstLine: number, final: boolean) {
    const newline = this.text.indexOf('\n', start);
    this.line = firstLine + 1;
    this.pos = newline === -1 ? this.text.length : newline + 1;
    if (newline === -1 && !final) this.skippingLine = true;
    // Reading resumes before positions already searched.
    this.forgetSearches();
  }

  /** Parses the record at pos: COMPLETE (fields, end, line counts set), NEED_MORE or a syntax error. */
  private parseRecord(final: boolean): number {
    const text = this.text;
    const length = text.length;
    const fields: string[] = [];
    let quotedNewlines = 0;
    let i = this.pos;
    for (;;) {
      if (text.charCodeAt(i) === QUOTE) {
        const open = i;
        let value = '';
        let from = i + 1;
        for (;;) {
          const quote = text.indexOf('"', from);
          if (quote === -1) return final ? OPEN_QUOTE : NEED_MORE;
          // A quote at the end of the text so far may be the first of a doubled quote.
          if (quote + 1 === length && !final) return NEED_MORE;
          if (text.charCodeAt(quote + 1) === QUOTE) {
            value += text.slice(from, quote + 1);
            from = quote + 2;
            continue;
          }
          value += text.slice(from, quote);
          i = quote + 1;
          break;
        }
        quotedNewlines += this.newlinesBetween(open, i);
        fields.push(value);
        const next = text.charCodeAt(i);
        if (next === COMMA) {
          i++;
          continue;
        }
        if (i === length) return this.complete(fields, length, quotedNewlines, 0);
        if (next === LF) return this.complete(fields, i + 1, quotedNewlines, 1);
        if (next === CR) {
          if (i + 1 === length) return final ? this.complete(fields, length, quotedNewlines, 0) : NEED_MORE;
          if (text.charCodeAt(i + 1) === LF) return this.complete(fields, i + 2, quotedNewlines, 1);
        }
        return TEXT_AFTER_QUOTE;
      }
      // Unquoted field: up to the next comma or line feed; a quote inside it is an ordinary character.
      if (this.nextComma < i) this.nextComma = find(text, ',', i);
      if (this.nextNewline < i) this.nextNewline = find(text, '\n', i);
      if (this.nextComma < this.nextNewline) {
        fields.push(text.slice(i, this.nextComma));
        i = this.nextComma + 1;
        continue;
      }
      if (this.nextNewline !== NOT_FOUND) {
        const newline = this.nextNewline;
        fields.push(text.slice(i, newline > i && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline));
        return this.complete(fields, newline + 1, quotedNewlines, 1);
      }
      if (!final) return NEED_MORE;
      fields.push(text.slice(i, length > i && text.charCodeAt(length - 1) === CR ? length - 1 : length));
      return this.complete(fields, length, quotedNewlines, 0);
    }
  }

  private newlinesBetween(from: number, to: number): number {
    let newline = this.nextNewline >= from ? this.nextNewline : find(this.text, '\n', from);
    let count = 0;
    while (newline < to) {
      count++;
      newline = find(this.text, '\n', newline + 1);
    }
    this.nextNewline = newline;
    return count;
  }

  private complete(fields: string[], end: number, quotedNewlines: number, lineEnd: number): number {
    this.fields = fields;
    this.recordEnd = end;
    this.quotedNewlines = quotedNewlines;
    this.lineBreaks = quotedNewlines + lineEnd;
    return COMPLETE;
  }
}

function tooLong(firstLine: number): string {
  return `The row starting on line ${firstLine} is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters`;
}
