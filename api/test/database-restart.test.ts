// A fast restart of PostgreSQL under load (docs/operations.md#database-restarts): two instances
// on one database, the field simulator working through each, and the database restarted in the
// middle. No call a client makes fails (they honour 503 with Retry-After), no instance ever
// answers 500, and every record and every event is written exactly once; every flagged record has
// its case, and a bulk job on cases restarted in its middle changes each case exactly once. On a cluster of its own,
// so the restart disturbs no other test file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RecordsEvent } from '@veritas/shared/domain';
import { runSimulation, type SimulationSummary } from '../sim/simulation';
import { openDatabase } from '../src/db/connection';
import { createServer } from '../src/server';
import { ADMIN_PASSWORD, ADMIN_USERNAME, Client, onPostgres } from './support/build';
import { startOwnPgCluster, type PgCluster } from './support/pg-cluster';
import { eventually } from '../../test-support/eventually';

let cluster: PgCluster | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'veritas-restart-'));
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  cluster?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

onPostgres(
  'a fast restart under load: no 5xx for the clients, no 500 from the server, every write exactly once',
  async () => {
    const own = await startOwnPgCluster();
    cluster = own.cluster;
    const { databaseUrl } = own;

    const statuses = new Map<number, number>();
    let scans = 0;
    const urls: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { app, close } = await createServer({
        dataDir,
        databaseUrl,
        logger: false,
        adminUsername: ADMIN_USERNAME,
        adminPassword: ADMIN_PASSWORD,
      });
      closers.push(close);
      await app.listen({ port: 0, host: '127.0.0.1' });
      // Counted below Fastify, so that no answer escapes, whichever scope wrote it.
      app.server.on('request', (request, response) => {
        if (request.url?.includes('/app/scan/')) scans += 1;
        response.on('finish', () => statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1));
      });
      urls.push(`http://127.0.0.1:${(app.server.address() as { port: number }).port}`);
    }

    const console = new Client(urls[0]!);
    await console.login(ADMIN_USERNAME, ADMIN_PASSWORD);
    for (const group of [
      { name: 'HUB1', code: 'HUB1', organization: 'hub' },
      { name: 'HUB2', code: 'HUB2', organization: 'hub' },
      { name: 'RC1', code: 'RC1', organization: 'RC' },
    ]) {
      expect((await console.post('user/create_group/', group)).status).toBe(201);
    }

    const simulate = (url: string, seed: number) =>
      runSimulation({
        url,
        adminUser: ADMIN_USERNAME,
        adminPassword: ADMIN_PASSWORD,
        operators: 4,
        records: 80,
        rate: 20,
        seed,
      });
    // Each run names its users and its shipment after the millisecond it starts.
    const first = simulate(urls[0]!, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = simulate(urls[1]!, 2);

    // Restarted once the field work is under way on both instances.
    await eventually(() => scans >= 60);
    const restartStarted = performance.now();
    await cluster.restart();
    const restartMs = performance.now() - restartStarted;
    const scansAtRestart = scans;
    const summaries: SimulationSummary[] = await Promise.all([first, second]);

    const results = summaries.flatMap((summary) =>
      [...summary.tally].flatMap(([call, counts]) => [...counts].map(([result, n]) => ({ call, result, n }))),
    );
    const clientFailures = results.filter(({ result }) => /^HTTP 5/.test(result));
    const calls = summaries.reduce((sum, summary) => sum + summary.calls, 0);
    const count = (status: number) => statuses.get(status) ?? 0;

    // Every record once, and one event for each change the clients were told of: none lost, none twice.
    const db = openDatabase({ dataDir, databaseUrl });
    closers.push(() => db.kysely.destroy());
    const records = await db.kysely
      .selectFrom('device_records')
      .select(['tracking_id', 'is_verified', 'is_verified_rc'])
      .execute();
    const events = (await db.kysely.selectFrom('events').select(['id', 'type', 'data']).execute())
      .filter((event) => event.type === 'records')
      .map((event) => JSON.parse(event.data) as RecordsEvent);
    const mentions = (action: 'verified' | 'detached') =>
      events.flatMap((event) => (event.action === action ? event.records.map((r) => r.tracking_id.tracking_id) : []));
    const passed = (call: string) => summaries.reduce((sum, s) => sum + (s.tally.get(call)?.get('passed') ?? 0), 0);
    const uploaded = events.reduce((sum, event) => sum + (event.action === 'uploaded' ? event.count : 0), 0);

    process.stdout.write(
      `database restart: ${calls} app calls, restart took ${Math.round(restartMs)} ms after ${scansAtRestart} scans; ` +
        `answers 500: ${count(500)}, 503 (repeated by the clients): ${count(503)}, ` +
        `5xx seen by the clients: ${clientFailures.length}; ${records.length} records, ${events.length} events\n`,
    );
    expect(clientFailures).toEqual([]);
    expect(count(500)).toBe(0);
    expect([...statuses.keys()].filter((status) => status >= 500 && status !== 503)).toEqual([]);

    const stored = summaries.reduce((sum, summary) => sum + summary.upload.processed, 0);
    expect(records).toHaveLength(stored);
    expect(new Set(records.map((record) => record.tracking_id)).size).toBe(stored);
    expect(uploaded).toBe(stored);
    for (const [action, flag, call] of [
      ['verified', 'is_verified', 'verify_hub'],
      ['detached', 'is_verified_rc', 'verify_rc'],
    ] as const) {
      const flagged = records.filter((record) => record[flag] === 1).map((record) => record.tracking_id);
      expect(mentions(action).sort()).toEqual(flagged.sort());
      // A scan repeated after a 503 whose outcome was unknown finds it done if it had committed.
      expect(flagged.length).toBeGreaterThanOrEqual(passed(call));
      expect(flagged.length).toBeLessThanOrEqual(passed(call) + count(503));
    }

    // Every flagged record has its case (docs/cases.md#opening-a-case), opened once.
    const flaggedIds = (
      await db.kysely
        .selectFrom('device_records')
        .select('tracking_id')
        .where('device_result', 'in', ['E004', 'E005', 'E006', 'E007'])
        .execute()
    ).map((row) => row.tracking_id);
    const cases = await db.kysely.selectFrom('cases').select(['tracking_id', 'state']).execute();
    const caseIds = new Set(cases.map((row) => row.tracking_id));
    expect(flaggedIds.filter((id) => !caseIds.has(id))).toEqual([]);
    expect(cases.length).toBe(caseIds.size);

    // A bulk job across a restart (docs/cases.md#bulk-actions): resumed, no case changed twice.
    const extra = Array.from({ length: 3000 }, (_, n) => ({
      tracking_id: `BULK-${n}`,
      reason: 'E007' as const,
      state: 'open' as const,
      disposition: null,
      queue: 'HUB9',
      assignee_id: null,
      due_at: new Date(Date.now() + 3_600_000).toISOString(),
      opened_at: new Date().toISOString(),
      opened_by_id: null,
      scanned_model: null,
      scanned_manufacturer: null,
      scanned_mac: null,
      scanned_hardware_id: null,
      resolved_at: null,
      updated_at: new Date().toISOString(),
    }));
    for (let n = 0; n < extra.length; n += 500)
      await db.kysely
        .insertInto('cases')
        .values(extra.slice(n, n + 500))
        .execute();
    const started = await console.post('api/cases/jobs/', {
      action: 'resolve',
      filters: { queue: 'HUB9' },
      disposition: 'recycled',
      note: 'Scrapped in bulk',
    });
    expect(started.status).toBe(202);
    const progress = async () => (await console.get(`api/cases/jobs/${started.body.id}/`)).body;
    await eventually(async () => (await progress()).done > 0);
    await cluster.restart();
    await eventually(async () => (await progress()).state === 'done', { withinMs: 120_000 });
    const job = await progress();
    expect(job).toMatchObject({ total: 3000, done: 3000, skipped: 0 });
    const resolutions = await db.kysely
      .selectFrom('case_events as e')
      .innerJoin('cases as c', 'c.id', 'e.case_id')
      .select((eb) => ['e.case_id', eb.fn.countAll<number | string>().as('n')])
      .where('c.queue', '=', 'HUB9')
      .where('e.kind', '=', 'resolved')
      .groupBy('e.case_id')
      .execute();
    expect(resolutions).toHaveLength(3000);
    expect(resolutions.every((row) => Number(row.n) === 1)).toBe(true);
  },
  300_000,
);
