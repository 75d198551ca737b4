// The streaming CSV record reader of uploads (src/upload/csv-records.ts), on its own.
import { CsvRecordReader, MAX_RECORD_CHARS, type CsvRecord } from '../src/upload/csv-records';
import { INVALID_UTF8 } from '../src/upload/utf8-text';

function read(pieces: string[]): CsvRecord[] {
  const reader = new CsvRecordReader();
  const records: CsvRecord[] = [];
  for (const piece of pieces) records.push(...reader.push(piece));
  records.push(...reader.end());
  return records;
}

/** The text cut into pieces of `size` characters. */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

describe('CsvRecordReader', () => {
  test('reads LF records into fields with the physical line each starts on', () => {
    expect(read(['a,b,c\n1,2,3\n4,5,6\n'])).toEqual([
      { fields: ['a', 'b', 'c'], firstLine: 1 },
      { fields: ['1', '2', '3'], firstLine: 2 },
      { fields: ['4', '5', '6'], firstLine: 3 },
    ]);
  });

  test('reads CRLF records, and a last record without line break', () => {
    expect(read(['a,b\r\n1,2\r\n3,4'])).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { fields: ['1', '2'], firstLine: 2 },
      { fields: ['3', '4'], firstLine: 3 },
    ]);
  });

  test('RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes; empty fields', () => {
    const text = 'a,b,c\n"x, y","say ""hi""","two\r\nlines"\n"",,z\n4,5,6\n';
    expect(read([text])).toEqual([
      { fields: ['a', 'b', 'c'], firstLine: 1 },
      { fields: ['x, y', 'say "hi"', 'two\r\nlines'], firstLine: 2 },
      { fields: ['', '', 'z'], firstLine: 4 },
      { fields: ['4', '5', '6'], firstLine: 5 },
    ]);
  });

  test('a quote inside an unquoted field is an ordinary character', () => {
    expect(read(['a,b\n5" screen,x\n'])).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { fields: ['5" screen', 'x'], firstLine: 2 },
    ]);
  });

  test('gives the same records however the text is cut into pieces', () => {
    const text =
      'id,"na\r\nme",note\r\n1,"a ""quoted"", multi\nline",x\r\n\r\n2,plain,"y"\n3,"bad"x,z\n4,ok,"open\n5,after,open\n';
    for (const [ending, last] of [
      ['', { fields: ['5', 'after', 'open'], firstLine: 9 }],
      ['6,"last",row', { fields: ['6', 'last', 'row'], firstLine: 10 }],
      ['7,last,row\r', { fields: ['7', 'last', 'row'], firstLine: 10 }],
    ] as const) {
      const whole = read([text + ending]);
      expect(whole.at(-1)).toEqual(last);
      for (const size of [1, 2, 3, 5, 7, 16]) expect(read(cut(text + ending, size))).toEqual(whole);
      for (let at = 0; at <= text.length + ending.length; at++) {
        expect(read([(text + ending).slice(0, at), (text + ending).slice(at)])).toEqual(whole);
      }
    }
  });

  test('blank lines and records of empty or whitespace fields are skipped but lines still counted', () => {
    expect(read(['\n\na,b\n\n , \n,\n1,2\r\n\r\n3,4\n\n'])).toEqual([
      { fields: ['a', 'b'], firstLine: 3 },
      { fields: ['1', '2'], firstLine: 7 },
      { fields: ['3', '4'], firstLine: 9 },
    ]);
  });

  test('a record whose field count differs from the header is an error: Expected N columns, found M', () => {
    expect(read(['a,b,c\n1,2\n1,2,3,4\n5,6,7\n'])).toEqual([
      { fields: ['a', 'b', 'c'], firstLine: 1 },
      { error: 'Expected 3 columns, found 2', firstLine: 2 },
      { error: 'Expected 3 columns, found 4', firstLine: 3 },
      { fields: ['5', '6', '7'], firstLine: 4 },
    ]);
  });

  test('text after a closing quote is an error; reading resumes on the next line', () => {
    const records = read(['a,b\n"x"y,1\n2,3\n']);
    expect(records[1]).toEqual({ error: expect.stringContaining('text follows a closing quote'), firstLine: 2 });
    expect(records[2]).toEqual({ fields: ['2', '3'], firstLine: 3 });
    expect(records).toHaveLength(3);
  });

  test('a quote left open at the end of input is an error; the lines it swallowed are read as rows', () => {
    const records = read(['a,b\n1,"open\n2,x\n3,y\n']);
    expect(records).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { error: expect.stringContaining('a quoted field is never closed'), firstLine: 2 },
      { fields: ['2', 'x'], firstLine: 3 },
      { fields: ['3', 'y'], firstLine: 4 },
    ]);
  });

  test('an unbalanced quote closed by a later quote: a multi-line record of the wrong width is a quote error, and resynchronised', () => {
    // The stray quote on line 2 pairs with the one inside line 4's second field, and the record
    // that results ends on line 4 with 4 fields instead of 3.
    const records = read(['a,b,c\n1,"open,x\n2,y,z\n3,w",extra,more\n4,v,u\n']);
    expect(records).toEqual([
      { fields: ['a', 'b', 'c'], firstLine: 1 },
      {
        error: expect.stringMatching(
          /^Invalid quoting: a quoted field joins lines 2–4 into one row of 4 columns instead of 3/,
        ),
        firstLine: 2,
      },
      { fields: ['2', 'y', 'z'], firstLine: 3 },
      { error: 'Expected 3 columns, found 4', firstLine: 4 },
      { fields: ['4', 'v', 'u'], firstLine: 5 },
    ]);
  });

  test('a multi-line record of the right width is a valid record', () => {
    expect(read(['a,b\n"x\ny",1\n2,3\n'])).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { fields: ['x\ny', '1'], firstLine: 2 },
      { fields: ['2', '3'], firstLine: 4 },
    ]);
  });

  test('a record holding INVALID_UTF8 (where the decoder found bytes that are not UTF-8) is an error row; U+FFFD is text', () => {
    expect(read([`a,b\n1,caf${INVALID_UTF8}\n2,"x\ny${INVALID_UTF8}"\n3,\uFFFD\n`])).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { error: 'Row contains bytes that are not valid UTF-8', firstLine: 2 },
      { error: 'Row contains bytes that are not valid UTF-8', firstLine: 3 },
      { fields: ['3', '\uFFFD'], firstLine: 5 },
    ]);
  });

  test('10,000-character cells are read whole', () => {
    const long = 'x'.repeat(10_000);
    expect(read(cut(`a,b\n${long},"${long}"\n`, 4096))).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { fields: [long, long], firstLine: 2 },
    ]);
  });

  test('a record longer than 1 MiB of text is an error and the next line is read (unquoted line, in pieces)', () => {
    const text = `a,b\n${'y'.repeat(MAX_RECORD_CHARS + 10)},1\n2,3\n`;
    const records = read(cut(text, 100_000));
    expect(records).toEqual([
      { fields: ['a', 'b'], firstLine: 1 },
      { error: expect.stringContaining('is longer than 1,048,576 characters'), firstLine: 2 },
      { fields: ['2', '3'], firstLine: 3 },
    ]);
  });

  test('a quote left open over more than 1 MiB is an error; reading resumes on the line after its first', () => {
    const filler = Array.from({ length: 30_000 }, (_, i) => `${i},row`).join('\n');
    const text = `a,b\n1,"open\n${filler}\n`;
    const records = read(cut(text, 1 << 18).concat(cut('z'.repeat(MAX_RECORD_CHARS), 1 << 18)));
    expect(records[1]).toEqual({ error: expect.stringContaining('is longer than'), firstLine: 2 });
    expect(records[2]).toEqual({ fields: ['0', 'row'], firstLine: 3 });
    expect(records.filter((record) => 'fields' in record)).toHaveLength(1 + 30_000);
  });
});
