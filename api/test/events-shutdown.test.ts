// Stopping on SIGTERM with event streams open (docs/operations.md#stopping): the API alone
// (src/start-api.ts) in a process of its own ends each stream with the retry hint and exits, instead
// of waiting for streams that never end by themselves.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, build, signIn } from './support/build';
import { EventStreamReader } from './support/event-stream';

const api = build({ start: false });

test('on SIGTERM the server ends its event streams with the retry hint and the process exits 0', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/start-api.ts'], {
    cwd: path.join(__dirname, '..'),
    env: {
      ...process.env,
      PORT: '0',
      VERITAS_DATA_DIR: api.database.dataDir,
      DATABASE_URL: api.database.databaseUrl ?? '',
      VERITAS_ADMIN_USERNAME: ADMIN_USERNAME,
      VERITAS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      VERITAS_DEMO: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    // Fastify logs the address it listens on.
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
        if (found) resolve(found[1]!);
      });
      void exited.then((code) => reject(new Error(`The server exited (${code}) before listening:\n${output}`)));
    });
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
