// The API alone (src/start-api.ts) in a process of its own, on a test file's database: for the
// tests that stop it with a signal or kill it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ADMIN_PASSWORD, ADMIN_USERNAME, type TestApi } from './build';

export interface ApiProcess {
  child: ChildProcess;
  /** Where it listens. */
  url: string;
  /** Its exit code once it exited. */
  exited: Promise<number | null>;
}

/** Starts it with `env` besides the database's; resolves once it listens. */
export async function startApiProcess(api: TestApi, env: NodeJS.ProcessEnv = {}): Promise<ApiProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/start-api.ts'], {
    cwd: path.join(__dirname, '../..'),
    env: {
      ...process.env,
      PORT: '0',
      VERITAS_DATA_DIR: api.database.dataDir,
      DATABASE_URL: api.database.databaseUrl ?? '',
      VERITAS_ADMIN_USERNAME: ADMIN_USERNAME,
      VERITAS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      VERITAS_DEMO: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
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
  return { child, url, exited };
}
