// The body of long streamed answers (src/streamed-body.ts pagedBody), on its own.
import { pagedBody } from '../src/streamed-body';

describe('pagedBody', () => {
  test('writes every chunk as bytes, in order', async () => {
    async function* pages() {
      yield '[1,';
      yield 'ü,';
      yield '3]';
    }
    const received: Buffer[] = [];
    for await (const chunk of pagedBody(pages())) received.push(chunk as Buffer);
    expect(Buffer.concat(received).toString('utf8')).toBe('[1,ü,3]');
    expect(received.every((chunk) => Buffer.isBuffer(chunk))).toBe(true);
  });

  test('gives other work of the event loop a turn between chunks, however fast they come', async () => {
    const events: string[] = [];
    // A synchronous source, as better-sqlite3 is: without a turn the pages would follow each other at once.
    async function* pages() {
      for (let page = 1; page <= 3; page++) {
        events.push(`page ${page}`);
        setImmediate(() => events.push(`other work after page ${page}`));
        yield `page ${page};`;
      }
    }
    const body = pagedBody(pages());
    body.resume();
    await new Promise((resolve) => body.on('end', resolve));
    expect(events).toEqual([
      'page 1',
      'other work after page 1',
      'page 2',
      'other work after page 2',
      'page 3',
      'other work after page 3',
    ]);
  });
});
