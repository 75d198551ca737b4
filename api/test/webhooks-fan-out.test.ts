// The dispatcher's fan-out within one round (src/webhooks/outbox.ts fanOutWhileFull), on its own:
// pages are read while they come full, and a short page ends the round's fan-out.
import { FAN_OUT_PAGE, fanOutWhileFull } from '../src/webhooks/outbox';

/** A page reader answering `pages` in turn (then empty pages), counting its reads. */
function pagesOf(pages: number[]) {
  const reader = { reads: 0, read: async () => pages[reader.reads++] ?? 0 };
  return reader;
}

describe('fanOutWhileFull', () => {
  test('a full page is followed by another in the same round', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, FAN_OUT_PAGE, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(3);
  });

  test('a short page ends the fan-out: events committed meanwhile wait for the next round', async () => {
    const reader = pagesOf([7, 7, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(1);
  });

  test('an empty page ends it too', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, 0, 7]);
    await fanOutWhileFull(reader.read, () => false);
    expect(reader.reads).toBe(2);
  });

  test('a dispatcher that stops reads no further page', async () => {
    const reader = pagesOf([FAN_OUT_PAGE, FAN_OUT_PAGE, FAN_OUT_PAGE]);
    await fanOutWhileFull(reader.read, () => reader.reads >= 2);
    expect(reader.reads).toBe(2);
  });
});
