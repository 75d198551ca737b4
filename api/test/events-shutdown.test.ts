// Stopping on SIGTERM with event streams open (docs/operations.md#stopping): the API alone
// (src/start-api.ts) in a process of its own ends each stream with the retry hint and exits, instead
// of waiting for streams that never end by themselves.
import { startApiProcess } from './support/api-process';
import { ADMIN_USERNAME, build, signIn } from './support/build';
import { EventStreamReader } from './support/event-stream';

const api = build({ start: false });

test('on SIGTERM the server ends its event streams with the retry hint and the process exits 0', async () => {
  const { child, url, exited } = await startApiProcess(api);
  try {
    const streams = await Promise.all(
      [1, 2].map(async () => EventStreamReader.open(url, await signIn(url, ADMIN_USERNAME))),
    );
    await Promise.all(streams.map((stream) => stream.waitFor((m) => m.comments.includes('connected'))));

    child.kill('SIGTERM');
    for (const stream of streams) {
      await stream.ended;
      expect(stream.messages.at(-1)).toEqual({ retry: '1000', comments: [] });
    }
    expect(await exited).toBe(0);
  } finally {
    child.kill('SIGKILL');
  }
});
