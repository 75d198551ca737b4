// A throwaway PostgreSQL 15 cluster in a temp folder, on a free port of 127.0.0.1: the API's test
// suite and benchmarks (api/test/support/pg-cluster.ts) and `pnpm start:fleet` start theirs here.
// initdb refuses to run as root, so as root the server runs as the postgres system user.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where the PostgreSQL 15 programs are (Debian package postgresql-15); VERITAS_PG_BIN names others. */
export const PG_BIN = process.env.VERITAS_PG_BIN || '/usr/lib/postgresql/15/bin';

export interface PgCluster {
  /** URL of the maintenance database `postgres`. */
  url: string;
  /**
   * Restarts the server (a fast shutdown, as an operator's restart), resolving once it answers
   * again; `downForMs` keeps it stopped that long first (an outage, as a failover's).
   */
  restart(downForMs?: number): Promise<void>;
  /** Stops the server and removes its folder. */
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPgCluster(): Promise<PgCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    fs.chownSync(dir, uid, gid);
  }
  const invocation = (tool: string, args: string[]): [string, string[]] => {
    const command = path.join(PG_BIN, tool);
    return [asRoot ? 'runuser' : command, asRoot ? ['-u', 'postgres', '--', command, ...args] : args];
  };
  const run = (tool: string, args: string[]) => execFileSync(...invocation(tool, args), { stdio: 'pipe' });
  const data = path.join(dir, 'data');
  const port = await freePort();
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync']);
  // Durability is pointless for a throwaway cluster; turning it off makes the suite faster.
  const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const log = path.join(dir, 'server.log');
  run('pg_ctl', ['-D', data, '-l', log, '-w', '-o', serverOptions, 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // Asynchronous, so that servers in the same process go on answering meanwhile.
    async restart(downForMs = 0) {
      const pgCtl = (args: string[]) =>
        new Promise<void>((resolve, reject) =>
          execFile(...invocation('pg_ctl', ['-D', data, '-l', log, '-w', ...args]), (error) =>
            error ? reject(error) : resolve(),
          ),
        );
      await pgCtl(['-m', 'fast', 'stop']);
      await sleep(downForMs);
      await pgCtl(['-o', serverOptions, 'start']);
    },
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
