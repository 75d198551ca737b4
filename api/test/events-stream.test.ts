// One event stream's rules (src/events/stream.ts), over a response whose unsent bytes the test
// decides: a live client that does not read is dropped, a replay waits for it instead, and no event
// is sent twice between the replay and the live events.
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { StoredEvent } from '../src/events/repository';
import { EventStream, MAX_BUFFERED_BYTES } from '../src/events/stream';

/** What the stream writes, and as many bytes unsent as the test says (a socket the client does not read). */
class FakeResponse extends EventEmitter {
  written = '';
  writableLength = 0;
  writableNeedDrain = false;
  destroyed = false;
  write(text: string) {
    this.written += text;
    return true;
  }
  end(text = '') {
    this.written += text;
    // As a socket does, once the end is flushed.
    setImmediate(() => this.emit('close'));
  }
  destroy() {
    this.destroyed = true;
    this.emit('close');
  }
}

const event = (id: number, type: StoredEvent['type'] = 'groups', hiddenFrom: string | null = null): StoredEvent => ({
  id,
  type,
  data: `{"n":${id}}`,
  visibleTo: (viewer) => viewer.role !== hiddenFrom,
});

function streamOver(response: FakeResponse, visible: (e: StoredEvent) => boolean = () => true) {
  return new EventStream(response as unknown as ServerResponse, visible);
}

const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

test('a live client with more than 1 MB unsent when events come is dropped, without writing them', () => {
  const response = new FakeResponse();
  const stream = streamOver(response);
  stream.goLive();
  stream.live([event(1)]);
  response.writableLength = MAX_BUFFERED_BYTES;
  stream.live([event(2)]);
  expect(response.destroyed).toBe(false);
  response.writableLength = MAX_BUFFERED_BYTES + 1;
  stream.live([event(3)]);
  expect(response.destroyed).toBe(true);
  expect(stream.open).toBe(false);
  expect(ids(response.written)).toEqual([1, 2]);
});

test('a replay page waits for the client to take it instead of dropping it', async () => {
  const response = new FakeResponse();
  const stream = streamOver(response);
  response.writableLength = 5 * MAX_BUFFERED_BYTES;
  response.writableNeedDrain = true;
  let sent = false;
  const page = stream.replay([event(1), event(2)]).then(() => (sent = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(sent).toBe(false);
  response.emit('drain');
  await page;
  expect(response.destroyed).toBe(false);
  expect(ids(response.written)).toEqual([1, 2]);
});

test('live events held during the replay are sent after it, those already replayed not again', async () => {
  const response = new FakeResponse();
  const stream = streamOver(response);
  stream.seenThrough(3);
  stream.live([event(2), event(3), event(4), event(5)]);
  await stream.replay([event(4)]);
  stream.live([event(5), event(6)]);
  stream.goLive();
  stream.live([event(6), event(7)]);
  expect(ids(response.written)).toEqual([4, 5, 6, 7]);
});

test('an event the viewer may not see is passed over, not sent', () => {
  const response = new FakeResponse();
  const stream = streamOver(response, (e) => e.visibleTo({ role: 'operators', groupCode: null }));
  stream.goLive();
  stream.live([event(1, 'users', 'incharge'), event(2, 'users', 'operators'), event(3)]);
  expect(ids(response.written)).toEqual([1, 3]);
});

test('at shutdown the stream is sent the retry hint and ended', () => {
  const response = new FakeResponse();
  const stream = streamOver(response);
  stream.shutdown();
  expect(response.written).toBe('retry: 1000\n\n');
  expect(stream.open).toBe(false);
});
