// The first step of `pnpm test`: the suite runs three programs from Debian packages. Those missing
// are installed when this process may (as root, or through sudo that asks no password); otherwise
// the suite stops at once, naming the one command that installs them.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { NGINX_BIN } from './fleet';
import { PG_BIN } from './pg-cluster';

/** The browser tests drive Debian's chromium (package chromium); CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Each program the suite runs, with the Debian package that provides it. */
export const NEEDED = [
  { pkg: 'chromium', program: CHROMIUM_PATH },
  // The API suite starts a throwaway PostgreSQL 15 cluster.
  { pkg: 'postgresql-15', program: path.join(PG_BIN, 'initdb') },
  // The fleet's test runs its own nginx in front of two API instances.
  { pkg: 'nginx', program: NGINX_BIN },
];

/** What the set-up reads of the machine and does to it. */
export interface Machine {
  exists(program: string): boolean;
  /** How apt-get may be run: as is (root), after sudo, or not at all (null). Asked only when a package is missing. */
  installer(): string[] | null;
  /** Runs a command, its output on the terminal; throws if it fails. */
  run(command: string[]): void;
  /** Whether Debian's own nginx service runs (an init system may start it when the package is installed). */
  nginxServiceRuns(): boolean;
  log(line: string): void;
}

/** Installs the missing packages, or throws an error whose message names the command to run. */
export function setUpTestMachine(machine: Machine): void {
  const missing = NEEDED.filter(({ program }) => !machine.exists(program)).map(({ pkg }) => pkg);
  if (missing.length === 0) return;
  const installer = machine.installer();
  if (!installer) {
    throw new Error(
      `The test suite needs the Debian packages ${missing.join(', ')}, missing here. Install them once ` +
        `(as root, or with sudo), then run the tests again:\n\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\n`,
    );
  }
  machine.log(`Installing the Debian packages the test suite needs: ${missing.join(' ')}`);
  machine.run([...installer, 'apt-get', 'update']);
  // `env` sets the variable for apt-get itself: sudo would drop it from this process's environment.
  machine.run([...installer, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', ...missing]);
  // The suite runs nginx processes of its own; Debian's service is not one of them.
  if (missing.includes('nginx') && machine.nginxServiceRuns()) machine.run([...installer, 'nginx', '-s', 'quit']);
}

const succeeds = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

/** This machine, as the suite finds it. */
export const thisMachine: Machine = {
  exists: (program) => fs.existsSync(program),
  installer() {
    if (!succeeds('apt-get', ['--version'])) return null;
    if (process.getuid?.() === 0) return [];
    return succeeds('sudo', ['-n', 'true']) ? ['sudo', '-n'] : null;
  },
  run: ([command, ...args]) => execFileSync(command!, args, { stdio: 'inherit' }),
  nginxServiceRuns() {
    try {
      const pid = Number(fs.readFileSync('/run/nginx.pid', 'utf8'));
      if (!(pid > 0)) return false;
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: it runs, as another user (root).
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  },
  log: (line) => console.log(line),
};

if (require.main === module) {
  try {
    setUpTestMachine(thisMachine);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
