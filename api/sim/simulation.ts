// The field simulator: field operators, hub staff and return-centre staff working a fresh shipment
// through the real HTTP API of a running server, as the mobile app would, at a chosen pace.
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { readOuiRegistry } from '../src/db/oui-registry';
import { DeviceMaker } from '../seed/field/devices';
import { FieldWork, type CallResult, type FieldCalls, type FieldStaff, type Tally } from '../seed/field/field-work';
import { seededRandom } from '@veritas/shared/testing/records';
import { makeShipment, shipmentCsv } from '../seed/field/shipment';
import { WebClient, fetchHonouringRetryAfter, uploadCsv } from './web-client';

export interface SimulationOptions {
  url: string;
  /** An admin or super_admin of the console: uploads the shipment and creates the field staff. */
  adminUser: string;
  adminPassword: string;
  /** Field operators, spread over the hubs. */
  operators: number;
  /** Items of the shipment. */
  records: number;
  /** At most this many app calls per second in all; 0: as fast as the server answers. */
  rate: number;
  seed: number;
}

export interface SimulationSummary {
  /** The shipment of this run: its tracking IDs all start with `prefix`. */
  upload: { prefix: string; processed: number; skipped: number };
  tally: Tally;
  /** App calls (check, submit, verify_hub, verify_rc). */
  calls: number;
  elapsedMs: number;
  latencyMs: { p50: number; p95: number; max: number };
}

interface AppUser {
  username: string;
  token: string;
}

/** Nearest-rank percentile of ascending values. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** POST to the app API: JSON with a bearer token. */
async function appPost(
  url: string,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: any }> {
  const response = await fetchHonouringRetryAfter(
    `${url}/veritas/app/${path}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    },
    { idempotent: true },
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Spaces calls `1000 / rate` ms apart, whoever sends them. */
function pacer(rate: number): () => Promise<void> {
  if (rate <= 0) return async () => {};
  const interval = 1000 / rate;
  let next = performance.now();
  return async () => {
    const wait = next - performance.now();
    next = Math.max(next, performance.now()) + interval;
    if (wait > 0) await sleep(wait);
  };
}

function httpCalls(url: string, rate: number, latencies: number[]): FieldCalls<AppUser> {
  const pace = pacer(rate);
  const send = async (path: string, user: AppUser, body: unknown): Promise<CallResult> => {
    await pace();
    const started = performance.now();
    const answer = await appPost(url, path, body, user.token);
    latencies.push(performance.now() - started);
    if (answer.status === 200) return answer.body.result;
    return answer.body?.code ?? `HTTP ${answer.status}`;
  };
  return {
    check: (user, scan) => send('scan/check/', user, scan),
    submit: (user, scan) => send('scan/submit/', user, scan),
    verifyHub: (user, scan) => send('scan/verify_hub/', user, scan),
    verifyRc: (user, scan) => send('scan/verify_rc/', user, scan),
  };
}

async function expectOk(answer: { status: number; body: unknown }, what: string) {
  if (answer.status >= 300) throw new Error(`${what} failed: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
}

export async function runSimulation(options: SimulationOptions): Promise<SimulationSummary> {
  const { url } = options;
  const rand = seededRandom(options.seed);
  const admin = new WebClient(url);
  const login = await admin.login(options.adminUser, options.adminPassword);
  if (login.status !== 200 || login.body?.is_webview !== true) {
    throw new Error(`sign-in of ${options.adminUser} failed: HTTP ${login.status} ${JSON.stringify(login.body)}`);
  }

  const groups = (await admin.get<{ code: string; organization: string }[]>('user/get_groups/')).body;
  const hubs = groups.filter((g) => g.organization === 'hub').map((g) => g.code);
  const rcs = groups.filter((g) => g.organization === 'RC').map((g) => g.code);
  if (hubs.length === 0 || rcs.length === 0)
    throw new Error('The server needs at least one hub group and one RC group (create them on the Create Group page).');

  // Field staff of this run: operators spread over the hubs, one executive per hub and per RC.
  const run = Date.now().toString(36);
  const password = `Sim-${crypto.randomBytes(9).toString('base64url')}`;
  const createUser = async (username: string, role: string, organization: string, group: string): Promise<AppUser> => {
    const created = await admin.post('user/create/', {
      username,
      email: `${username}@sim.veritas.local`,
      password,
      role,
      organization,
      group,
    });
    await expectOk(created, `creating ${username}`);
    const session = await appPost(url, 'login/', { username, password });
    await expectOk(session, `app sign-in of ${username}`);
    return { username, token: session.body.token };
  };
  const operators = new Map<string, AppUser[]>();
  for (let i = 0; i < options.operators; i++) {
    const hub = hubs[i % hubs.length]!;
    operators.set(hub, [
      ...(operators.get(hub) ?? []),
      await createUser(`sim_${run}_op${i + 1}`, 'operators', 'hub', hub),
    ]);
  }
  const staffedHubs = [...operators.keys()];
  const rcUsers = await Promise.all(rcs.map((rc, i) => createUser(`sim_${run}_rc${i + 1}`, 'executive', 'RC', rc)));
  const staff: FieldStaff<AppUser> = {
    operators,
    hubVerifiers: new Map(
      await Promise.all(
        staffedHubs.map(
          async (hub, i) => [hub, [await createUser(`sim_${run}_hub${i + 1}`, 'executive', 'hub', hub)]] as const,
        ),
      ),
    ),
    rcVerifiers: new Map(staffedHubs.map((hub, i) => [hub, rcUsers[i % rcUsers.length]!])),
  };

  // Created over the last day, so the console's "today" and "last 7 days" views show the run.
  const prefix = `SIM${run.toUpperCase()}`;
  const shipment = makeShipment(rand, {
    count: options.records,
    hubs: staffedHubs,
    prefix,
    now: Date.now(),
    spanDays: 1,
  });
  const answers = await uploadCsv(admin, `simulation_${run}.csv`, shipmentCsv(shipment));
  const result = answers.at(-1)!;
  await expectOk(result, 'the shipment upload');

  const latencies: number[] = [];
  const work = new FieldWork(
    httpCalls(url, options.rate, latencies),
    staff,
    new DeviceMaker(readOuiRegistry().prefixes, rand),
    rand,
    () => new Date(),
    shipment,
  );
  const started = performance.now();
  // Each operator works through its share of its hub's items; all operators at once.
  await Promise.all(
    [...operators].flatMap(([hub, hubOperators]) => {
      const items = shipment.filter((item) => item.hub_code === hub);
      return hubOperators.map(async (operator, n) => {
        for (let i = n; i < items.length; i += hubOperators.length) await work.work(items[i]!, operator);
      });
    }),
  );
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    upload: { prefix, processed: result.body.processed, skipped: result.body.skipped },
    tally: work.tally,
    calls: latencies.length,
    elapsedMs,
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? 0 },
  };
}

/** The summary as printed: results by call and code, calls per second, latency. */
export function formatSummary(summary: SimulationSummary): string {
  const { prefix, processed, skipped } = summary.upload;
  const lines = [`shipment ${prefix}…: ${processed} rows stored, ${skipped} skipped`];
  for (const [call, results] of summary.tally) {
    const total = [...results.values()].reduce((a, b) => a + b, 0);
    const parts = [...results].sort(([a], [b]) => a.localeCompare(b)).map(([result, count]) => `${result} ${count}`);
    lines.push(`${call.padEnd(11)} ${String(total).padStart(6)}  ${parts.join(', ')}`);
  }
  const seconds = summary.elapsedMs / 1000;
  lines.push(
    `${summary.calls} app calls in ${seconds.toFixed(1)} s: ${(summary.calls / seconds).toFixed(0)} calls/s; latency p50 ${summary.latencyMs.p50.toFixed(1)} ms, p95 ${summary.latencyMs.p95.toFixed(1)} ms, max ${summary.latencyMs.max.toFixed(1)} ms`,
  );
  return lines.join('\n');
}
