// The fleet of `pnpm start:fleet` (scripts/fleet.ts) for a test file: instances of the production
// build on a throwaway PostgreSQL cluster behind nginx, on free ports; plus what the fleet tests
// do besides a browser: read the database (psql) and act as the mobile app.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { startFleet, type Fleet } from '../../scripts/fleet';
import { PG_BIN } from '../../scripts/pg-cluster';
import { DEMO_PASSWORD } from './browser';
import { ADMIN_PASSWORD, findFreePortBlock } from './server';

export interface TestFleet extends Fleet {
  /** Rows of a query on the fleet's database, each a list of its values as text. */
  sql(query: string): string[][];
}

/** The last lines the fleet's processes wrote, shown when it fails to start. */
const OUTPUT_LINES = 300;

export async function startTestFleet(instances = 2): Promise<TestFleet> {
  // nginx on PORT, instance i on PORT+10·i.
  const port = await findFreePortBlock(10 * (instances + 1));
  const lines: string[] = [];
  let fleet: Fleet;
  try {
    fleet = await startFleet({
      instances,
      port,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        VERITAS_DEMO: '1',
        VERITAS_ADMIN_USERNAME: 'admin',
        VERITAS_ADMIN_PASSWORD: ADMIN_PASSWORD,
      },
      output: (label, line) => {
        lines.push(`[${label}] ${line}`);
        if (lines.length > OUTPUT_LINES) lines.shift();
      },
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${lines.join('\n')}`, { cause: error });
  }
  return Object.assign(fleet, {
    sql(query: string): string[][] {
      const out = execFileSync(path.join(PG_BIN, 'psql'), [
        '-X',
        '-A',
        '-t',
        '-F',
        '\t',
        '-v',
        'ON_ERROR_STOP=1',
        '-d',
        fleet.databaseUrl,
        '-c',
        query,
      ]);
      return out
        .toString()
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => line.split('\t'));
    },
  });
}

/** The mobile app of one field user, calling /veritas/app/ at `baseUrl` (an instance or nginx). */
export class FieldApp {
  private constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  static async signIn(baseUrl: string, username: string, password = DEMO_PASSWORD): Promise<FieldApp> {
    const response = await fetch(new URL('veritas/app/login/', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (response.status !== 200)
      throw new Error(`app/login/ as ${username}: ${response.status} ${await response.text()}`);
    return new FieldApp(baseUrl, ((await response.json()) as { token: string }).token);
  }

  /**
   * Submits a scan of a device at the doorstep: a fresh MAC address and hardware ID, so it passes
   * for a record that expects no brand or model. Answers the call's status and body.
   */
  async submit(trackingId: string): Promise<{ status: number; body: { result?: string } }> {
    const mac = crypto.randomBytes(6).toString('hex').toUpperCase();
    const response = await fetch(new URL('veritas/app/scan/submit/', this.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify({ tracking_id: trackingId, mac_address: mac, model: '', hardware_id: `HW-${mac}` }),
    });
    return { status: response.status, body: (await response.json()) as { result?: string } };
  }
}
