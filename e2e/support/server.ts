// Starts `scripts/serve.mjs` (the production composition) as a child process on free ports
// with its own throwaway data folder, and stops it again.
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../..');
export const ADMIN_PASSWORD = 'Admin#e2e-2025';

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  /** The data folder was made for this server (none was given): it goes when the server stops. */
  temporaryData: boolean;
  process: ChildProcess;
  /** What the server has printed so far (its log), standard output and error together. */
  output(): string;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A base port whose next `size - 1` ports are free too. */
export async function findFreePortBlock(size = 1): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20000 + Math.floor(Math.random() * 20000);
    const checks = await Promise.all(Array.from({ length: size }, (_, i) => portIsFree(base + i)));
    if (checks.every(Boolean)) return base;
  }
  throw new Error('No free block of ports found');
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}veritas/user/is_LoggedIn/`);
      if (res.status === 401 || res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not start in time:\n${output()}`);
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await findFreePortBlock();
  const dataDir = env.VERITAS_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'veritas-e2e-'));
  let log = '';
  const child = spawn(process.execPath, [path.join(repoRoot, 'scripts/serve.mjs')], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      VERITAS_DATA_DIR: dataDir,
      VERITAS_DEMO: '1',
      VERITAS_ADMIN_USERNAME: 'admin',
      VERITAS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}/`;
  await waitUntilUp(url, child, () => log);
  return { url, port, dataDir, temporaryData: env.VERITAS_DATA_DIR === undefined, process: child, output: () => log };
}

export async function stopServer(server: Pick<RunningServer, 'process' | 'dataDir' | 'temporaryData'>): Promise<void> {
  if (server.process.exitCode === null) {
    const exited = new Promise((r) => server.process.once('exit', r));
    server.process.kill('SIGTERM');
    await exited;
  }
  // A database the caller named (a benchmark's, loaded beforehand) is theirs to keep.
  if (server.temporaryData) rmSync(server.dataDir, { recursive: true, force: true });
}
