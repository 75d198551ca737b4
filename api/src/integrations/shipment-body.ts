// The body of `POST api/v1/shipments/` (docs/integrations.md#shipments-in), read as it arrives into
// the CSV an upload stores, in the upload's chunks of 1 MiB: a CSV body as it is, a JSON body's
// items as the CSV's rows. Nothing holds the whole body: a JSON array is cut into its items as its
// text arrives, each item parsed and checked on its own. The CSV's SHA-256 is what a repeated
// Idempotency-Key is compared with, so a JSON body is the same body whatever its spacing or the
// order of its fields.
import { createHash } from 'node:crypto';
import { scan as poisonedKeys } from 'secure-json-parse';
import { SHIPMENT_COLUMNS, ShipmentItem } from '@veritas/shared/domain';
import type { ErrorObject } from 'ajv';
import { BadRequest, PayloadTooLarge, schemaFault, type ObjectSchema } from '../http-errors';
import { validatorCompiler } from '../schemas';
import { MAX_RECORD_CHARS } from '../upload/csv-records';
import { MAX_UPLOAD_CHUNKS, UPLOAD_CHUNK_BYTES } from '@veritas/shared/domain';

export type BodyFormat = 'json' | 'csv';

/** The largest body, as sent and as the CSV stored: the upload's largest file, 100 MiB. */
export const MAX_BODY_BYTES = MAX_UPLOAD_CHUNKS * UPLOAD_CHUNK_BYTES;

/** What a body became. */
export interface ReadBody {
  /** SHA-256 (hex) of the CSV. */
  hash: string;
  /** The CSV's chunks (at least one, empty for an empty body). */
  totalChunks: number;
  /** Its rows: a JSON body's items, a CSV body's line breaks after the first line (in quotes and blank lines too). */
  rows: number;
}

/** Receives chunk `index` of the CSV as it fills. */
export type ChunkSink = (index: number, data: Buffer) => Promise<void>;

export const bodyTooLarge = () =>
  new PayloadTooLarge(`The body may be at most ${MAX_BODY_BYTES.toLocaleString('en-US')} bytes (100 MiB).`);

/** The CSV's bytes into chunks of UPLOAD_CHUNK_BYTES, hashed and counted. */
class Chunks {
  private readonly hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private count = 0;
  lineBreaks = 0;
  endsWithLineBreak = true;
  bytes = 0;

  constructor(private readonly sink: ChunkSink | null) {}

  async write(data: Buffer): Promise<void> {
    if (data.length === 0) return;
    this.hash.update(data);
    this.bytes += data.length;
    for (let at = data.indexOf(10); at !== -1; at = data.indexOf(10, at + 1)) this.lineBreaks++;
    this.endsWithLineBreak = data[data.length - 1] === 10;
    this.pending.push(data);
    this.pendingBytes += data.length;
    while (this.pendingBytes >= UPLOAD_CHUNK_BYTES) {
      const all = Buffer.concat(this.pending, this.pendingBytes);
      await this.emit(all.subarray(0, UPLOAD_CHUNK_BYTES));
      const rest = all.subarray(UPLOAD_CHUNK_BYTES);
      this.pending = rest.length ? [rest] : [];
      this.pendingBytes = rest.length;
    }
  }

  async end(): Promise<{ hash: string; totalChunks: number }> {
    if (this.pendingBytes > 0 || this.count === 0) await this.emit(Buffer.concat(this.pending, this.pendingBytes));
    return { hash: this.hash.digest('hex'), totalChunks: this.count };
  }

  private async emit(data: Buffer) {
    if (this.count >= MAX_UPLOAD_CHUNKS)
      throw new PayloadTooLarge('The shipment is too large: as CSV its rows would be over 100 MiB.');
    // A copy: the chunk must not keep the whole buffer it was cut from.
    await this.sink?.(this.count, Buffer.from(data));
    this.count++;
  }
}

/** The body's bytes, refused once they pass MAX_BODY_BYTES. */
async function* limited(body: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const data of body) {
    bytes += data.length;
    if (bytes > MAX_BODY_BYTES) throw bodyTooLarge();
    yield data;
  }
}

/**
 * Reads `body` whole into the CSV an upload stores, each full chunk given to `sink` (null: only
 * hashed and counted). Throws 400 for a JSON body that is not an array of items as ShipmentItem
 * describes, 413 beyond MAX_BODY_BYTES.
 */
export async function readShipmentBody(
  body: AsyncIterable<Buffer>,
  format: BodyFormat,
  sink: ChunkSink | null,
): Promise<ReadBody> {
  const chunks = new Chunks(sink);
  if (format === 'csv') {
    for await (const data of limited(body)) await chunks.write(data);
    const lines = chunks.lineBreaks + (chunks.endsWithLineBreak ? 0 : 1);
    return { ...(await chunks.end()), rows: Math.max(0, lines - 1) };
  }
  const rows = await writeJsonAsCsv(limited(body), chunks);
  return { ...(await chunks.end()), rows };
}

const NOT_AN_ARRAY = 'Send the shipment as a JSON array of items, or as text/csv.';
const notJson = (why: string) => new BadRequest('body', `The body is not a JSON array of items: ${why}.`);

const HEADER_LINE = `${SHIPMENT_COLUMNS.join(',')}\n`;
const checkItem = validatorCompiler({ schema: ShipmentItem, method: 'POST', url: '', httpPart: 'body' }) as ((
  item: unknown,
) => boolean) & { errors?: ErrorObject[] | null };

/** A text cell, always quoted (RFC 4180), so that what it holds is read exactly as sent. */
const quoted = (text: string) => `"${text.replaceAll('"', '""')}"`;

/**
 * An item's CSV row. A column absent, null or empty is an empty cell, but is_blindpick, whose empty
 * cell means false, is written `false`: a row is never blank, so rows keep the items' numbers.
 */
function rowOf(item: Record<string, unknown>): string {
  const cells = SHIPMENT_COLUMNS.map((column) => {
    const value = Object.hasOwn(item, column) ? item[column] : null;
    if (column === 'is_blindpick' && (value === null || (typeof value === 'string' && value.trim() === '')))
      return 'false';
    if (value === null || value === undefined || value === '') return '';
    return typeof value === 'boolean' ? String(value) : quoted(value as string);
  });
  return `${cells.join(',')}\n`;
}

/** Item `row`'s text as its CSV row; 400 naming the row for what it breaks. */
function itemRow(text: string, row: number): string {
  let item: unknown;
  try {
    item = JSON.parse(text);
  } catch {
    throw new BadRequest('body', `Row ${row}: the item is not valid JSON.`, { row });
  }
  if (typeof item !== 'object' || item === null || Array.isArray(item))
    throw new BadRequest('body', `Row ${row}: an item is a JSON object whose fields are the CSV's columns.`, { row });
  // Refused as every other JSON body of the API is (Fastify's parser, the same package): harmless
  // here, where only the columns are read, but a client is told the same wherever it sends one.
  if (poisonedKeys(item, { safe: true }) === null)
    throw new BadRequest('body', `Row ${row}: the item holds a __proto__ or constructor key.`, { row });
  if (!checkItem(item)) {
    const fault = schemaFault(ShipmentItem as unknown as ObjectSchema, checkItem.errors ?? []);
    throw new BadRequest(fault.field, `Row ${row}: ${fault.message}`, { row });
  }
  return rowOf(item as Record<string, unknown>);
}

/** Writes the CSV of a JSON body: its header, then each item's row. Answers the number of items. */
async function writeJsonAsCsv(body: AsyncIterable<Buffer>, chunks: Chunks): Promise<number> {
  // Fatal: bytes that are not UTF-8 refuse the body. A byte order mark is dropped.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (data?: Buffer) => {
    try {
      return data ? decoder.decode(data, { stream: true }) : decoder.decode();
    } catch {
      throw notJson('it holds bytes that are not UTF-8');
    }
  };
  const items = new JsonArrayItems();
  await chunks.write(Buffer.from(HEADER_LINE));
  for await (const data of body) {
    let rows = '';
    for (const text of items.push(decode(data))) rows += itemRow(text, items.count);
    if (rows) await chunks.write(Buffer.from(rows, 'utf8'));
  }
  for (const text of items.push(decode())) await chunks.write(Buffer.from(itemRow(text, items.count), 'utf8'));
  items.end();
  return items.count;
}

/** Outside a string: what may start or end a nested value, a string, or an item. */
const STRUCTURE = /["{}[\],]/g;
/** Inside a string: its end, or an escape. */
const IN_STRING = /["\\]/g;
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * Cuts the text of a JSON array, as it arrives, into the texts of its items, which JSON.parse then
 * reads (itemRow): only strings and nesting are followed here, to find where each item ends.
 */
class JsonArrayItems {
  /** Items found so far; the one being read is item count + 1. */
  count = 0;
  private state: 'before' | 'open' | 'next' | 'item' | 'after' = 'before';
  private item = '';
  private inString = false;
  private escaped = false;
  private depth = 0;

  *push(text: string): Generator<string> {
    let at = 0;
    while (at < text.length) {
      if (this.state === 'item') {
        const end = this.itemEnd(text, at);
        this.add(text.slice(at, end === -1 ? text.length : end));
        if (end === -1) return;
        const item = this.item;
        this.item = '';
        this.state = text[end] === ',' ? 'next' : 'after';
        this.count++;
        yield item;
        at = end + 1;
        continue;
      }
      const c = text[at]!;
      if (isSpace(c)) {
        at++;
      } else if (this.state === 'before') {
        if (c !== '[') throw new BadRequest('body', NOT_AN_ARRAY);
        this.state = 'open';
        at++;
      } else if (this.state === 'open' && c === ']') {
        this.state = 'after';
        at++;
      } else if (this.state === 'after') {
        throw notJson('text follows the array');
      } else if (c === ']' || c === ',') {
        throw notJson(`item ${this.count + 1} is missing`);
      } else {
        this.state = 'item';
      }
    }
  }

  /** The whole body was read. */
  end(): void {
    if (this.state === 'before') throw new BadRequest('body', NOT_AN_ARRAY);
    if (this.state !== 'after') throw notJson('it ends before the array does');
  }

  private add(text: string) {
    if (this.item.length + text.length > MAX_RECORD_CHARS)
      throw new BadRequest(
        'body',
        `Row ${this.count + 1}: the item is longer than ${MAX_RECORD_CHARS.toLocaleString('en-US')} characters.`,
        { row: this.count + 1 },
      );
    this.item += text;
  }

  /** Where in `text` the item being read ends (its `,` or the array's `]`), or -1 past the text's end. */
  private itemEnd(text: string, from: number): number {
    let at = from;
    while (at < text.length) {
      if (this.escaped) {
        this.escaped = false;
        at++;
        continue;
      }
      const pattern = this.inString ? IN_STRING : STRUCTURE;
      pattern.lastIndex = at;
      const found = pattern.exec(text);
      if (!found) return -1;
      at = found.index;
      const c = text[at];
      if (this.inString) {
        if (c === '\\') this.escaped = true;
        else this.inString = false;
      } else if (c === '"') {
        this.inString = true;
      } else if (c === '{' || c === '[') {
        this.depth++;
      } else if (c === '}' || (c === ']' && this.depth > 0)) {
        if (this.depth === 0) throw notJson(`item ${this.count + 1} is not valid JSON`);
        this.depth--;
      } else if (this.depth === 0) {
        return at;
      }
      at++;
    }
    return -1;
  }
}
