// The upload's decoder (src/upload/utf8-text.ts) on its own: a fatal decoder over chunks, with
// bytes that are not UTF-8 confined to their lines.
import { INVALID_UTF8, Utf8Text } from '../src/upload/utf8-text';

/** The text of the bytes sent in the given pieces. */
function decode(pieces: Uint8Array[]): string {
  const decoder = new Utf8Text();
  return pieces.map((piece) => decoder.decode(piece)).join('') + decoder.end();
}

/** The same bytes, in two pieces cut at every position and in pieces of 1 to 4 bytes. */
function cuts(bytes: Buffer): Uint8Array[][] {
  const all: Uint8Array[][] = [];
  for (let at = 0; at <= bytes.length; at++) all.push([bytes.subarray(0, at), bytes.subarray(at)]);
  for (const size of [1, 2, 3, 4]) {
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
    all.push(pieces);
  }
  return all;
}

describe('Utf8Text', () => {
  test('decodes characters of 1 to 4 bytes however the chunks cut them', () => {
    const text = 'a,é,€uro,𝄞 clef\r\nʤ,"x\ny",\uFFFD\n';
    for (const pieces of cuts(Buffer.from(text, 'utf8'))) expect(decode(pieces)).toBe(text);
  });

  test('U+FFFD sent as its own bytes (EF BF BD) is text like any other', () => {
    expect(decode([Buffer.from([0x61, 0xef, 0xbf, 0xbd, 0x0a])])).toBe('a\uFFFD\n');
  });

  test('a byte order mark is dropped at the start of the file only, even when the chunks cut it', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('a,b\n\uFEFFc\n', 'utf8')]);
    for (const pieces of cuts(bytes)) expect(decode(pieces)).toBe('a,b\n\uFEFFc\n');
  });

  test('bytes that are not UTF-8 mark their own line only, keeping its commas, quotes and line ends; every other line is decoded', () => {
    const bad = [
      [0x80], // a continuation byte alone
      [0xc0, 0x80], // an overlong form
      [0xed, 0xa0, 0x80], // a surrogate
      [0xe2, 0x82], // a character cut by the line end
      [0xf5, 0x80, 0x80, 0x80], // beyond U+10FFFF
      [0xff],
    ];
    for (const invalid of bad) {
      const bytes = Buffer.concat([Buffer.from('1,ok\r\n2,"caf'), Buffer.from(invalid), Buffer.from('é",x\n3,€\n')]);
      for (const pieces of cuts(bytes)) {
        const lines = decode(pieces).split('\n');
        expect(lines[0]).toBe('1,ok\r');
        expect(lines[1]).toMatch(new RegExp(`^2,"caf${INVALID_UTF8}+é",x$`));
        expect(lines.slice(2)).toEqual(['3,€', '']);
      }
    }
  });

  test('a character left unfinished at the end of the file is not UTF-8', () => {
    expect(decode([Buffer.from('a\nb'), Buffer.from([0xe2, 0x82])])).toBe(`a\nb${INVALID_UTF8}`);
  });
});
