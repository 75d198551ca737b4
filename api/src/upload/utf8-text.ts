// An upload's bytes to text, chunk by chunk, with a fatal decoder: bytes that are not UTF-8 are
// never mistaken for text, and they spoil only the physical lines holding them (a line feed,
// 0x0A, is never part of a multi-byte character). Such a line is decoded with U+FFFD for its bad
// bytes, each then replaced by INVALID_UTF8, which the record reader reports as its row's error.
// A U+FFFD sent as its own valid bytes (EF BF BD) is text like any other.
//
// Each chunk is decoded whole by a one-shot fatal TextDecoder, and the bytes of a character that
// the chunk's end cuts are carried to the next chunk here. Not TextDecoder's { stream: true }:
// when it throws, the streaming decoder drops the bytes it held from the chunk before (Node 20),
// which the lines of the failed chunk are then decoded without.

/** Stands where bytes were not UTF-8: a lone surrogate, which no valid UTF-8 decodes to. */
export const INVALID_UTF8 = '\uDC00';

const LF = 0x0a;
const NO_BYTES = new Uint8Array(0);

/** How many bytes at the end of `bytes` start a character that the next chunk finishes. */
function unfinishedCharacter(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead byte is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

export class Utf8Text {
  private readonly fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly lenient = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The start of a character cut by the end of the last chunk. */
  private carried: Uint8Array = NO_BYTES;
  private atStart = true;

  /** The text of the next chunk. */
  decode(chunk: Uint8Array): string {
    const bytes = this.carried.length === 0 ? chunk : Buffer.concat([this.carried, chunk]);
    const end = bytes.length - unfinishedCharacter(bytes);
    this.carried = bytes.subarray(end);
    return this.text(bytes.subarray(0, end));
  }

  /** The text left at the end of the file: a character left unfinished is not UTF-8. */
  end(): string {
    const rest = this.carried;
    this.carried = NO_BYTES;
    return this.text(rest);
  }

  private text(bytes: Uint8Array): string {
    let text: string;
    try {
      text = this.fatal.decode(bytes);
    } catch {
      text = this.byLine(bytes);
    }
    // A byte order mark is dropped at the start of the file only.
    if (this.atStart && text.length > 0) {
      this.atStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    return text;
  }

  /** Decodes each line on its own, marking the lines that are not UTF-8. */
  private byLine(bytes: Uint8Array): string {
    const pieces: string[] = [];
    for (let start = 0; start < bytes.length;) {
      const newline = bytes.indexOf(LF, start);
      const end = newline === -1 ? bytes.length : newline + 1;
      const line = bytes.subarray(start, end);
      try {
        pieces.push(this.fatal.decode(line));
      } catch {
        // A U+FFFD the line holds as valid bytes may be marked too: the row is an error anyway.
        pieces.push(this.lenient.decode(line).replaceAll('\uFFFD', INVALID_UTF8));
      }
      start = end;
    }
    return pieces.join('');
  }
}
