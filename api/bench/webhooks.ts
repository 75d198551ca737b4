// Benchmark of the webhooks (docs/webhooks.md) and of shipments in through the API
// (docs/integrations.md#shipments-in), the server in its own process as `pnpm start` runs it,
// a receiver in a process of its own answering 200 at once (webhook-receiver.mjs):
//   1. the simulator (bench/simulator.ts's field work) in BENCH_WEBHOOK_PAIRS (default 3) pairs of
//      runs with an endpoint taking every event type and without any, alternating, each on a fresh
//      database: what the outbox costs the calls per second (goal ≤ 5%), and, with the endpoint,
//      scan → webhook received: from a submission's time (its record's submit_time, stamped by the
//      server in the scan) to the record.submitted message's arrival, p50 and p95;
//   2. sustained deliveries per second: BENCH_DELIVERIES (default 10,000) messages queued at once;
//   3. a shipment of BENCH_ROWS (default 100,000) rows, in pairs: the console's upload with the
//      endpoint and without (the outbox's cost on rows/s), and the same file through
//      api/v1/shipments/ (202, polled to its end) against the console's upload.
//
//   pnpm --filter api bench:webhooks        (BENCH_ENGINE=sqlite|postgres for one engine)
import { fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { DEMO_PASSWORD, loadVolumeData } from '../seed';
import { formatSummary, runSimulation } from '../sim/simulation';
import { uploadCsv, WebClient } from '../sim/web-client';
import { SYSTEM } from '../src/audit/trail';
import { createApiKey } from '../src/integrations/api-keys';
import { WEBHOOK_EVENT_TYPES } from '@veritas/shared/domain';
import {
  comparePairs,
  forEachEngine,
  median,
  startServerProcess,
  stopChild,
  withDatabase,
  withFreshDatabase,
  type AuditRunFigure,
  type EngineOptions,
} from './harness';
import { shipmentCsv } from './shipment-file';

const PAIRS = Math.max(1, Number(process.env.BENCH_WEBHOOK_PAIRS ?? 3));
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const percentile = (values: number[], fraction: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(fraction * values.length) - 1)]!;
const ENV = { VERITAS_WEBHOOKS_ALLOW_LOCAL: '1', VERITAS_API_KEY_RATE: '1000000' };

/** A message as the receiver tells it: its type, arrival time and, for record.submitted, the submission's time. */
interface Arrival {
  type: string;
  at: number;
  submitTime?: string;
}

/** The receiver (webhook-receiver.mjs) in a process of its own, answering 200 at once; each message as it arrived. */
async function startReceiver() {
  const received: Arrival[] = [];
  const child = fork(path.join(__dirname, 'webhook-receiver.mjs'), [], { execArgv: [] });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (message: { port: number } | Arrival[]) => {
      if (Array.isArray(message)) received.push(...message);
      else resolve(message.port);
    });
    child.once('exit', (code) => reject(new Error(`the receiver exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/hooks`, received, close: () => stopChild(child) };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** An endpoint to `url` taking every event type, straight into the database. */
async function addEndpoint(options: EngineOptions, url: string): Promise<number> {
  return withDatabase(options, async (db) => {
    const { id } = await db.kysely
      .insertInto('webhook_endpoints')
      .values({
        url,
        description: 'bench',
        event_types: WEBHOOK_EVENT_TYPES.join(' '),
        enabled: 1,
        secret: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
        created_ms: Date.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  });
}

async function waitUntil(condition: () => boolean, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One simulation on a fresh database, with an endpoint to `receiver` or none; its latencies when with. */
async function simulateOnce(options: EngineOptions, receiver: Receiver | null, latencies: number[]) {
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  if (receiver) await addEndpoint(options, receiver.url);
  const server = await startServerProcess(options, ENV);
  try {
    const from = receiver?.received.length ?? 0;
    const cpuBefore = server.cpuSeconds();
    const summary = await runSimulation({
      url: server.base,
      adminUser: 'admin_demo',
      adminPassword: DEMO_PASSWORD,
      operators: 16,
      records: 3000,
      rate: 0,
      seed: 7,
    });
    const cpu = server.cpuSeconds() - cpuBefore;
    console.log(formatSummary(summary).replace(/^/gm, '   '));
    if (receiver) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const submitted = receiver.received.slice(from).filter((m) => m.type === 'record.submitted');
      for (const m of submitted) latencies.push(m.at - Date.parse(m.submitTime!));
      console.log(
        `   ${fmt(receiver.received.length - from)} messages received, ${fmt(submitted.length)} record.submitted`,
      );
    }
    return { rate: summary.calls / (summary.elapsedMs / 1000), perCpuSecond: summary.calls / cpu };
  } finally {
    await server.stop();
  }
}

/** DELIVERIES test messages queued at once; the time until the receiver has them all. */
async function deliveriesPerSecond(options: EngineOptions, receiver: Receiver): Promise<void> {
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  const endpoint = await addEndpoint(options, receiver.url);
  const server = await startServerProcess(options, ENV);
  try {
    const from = receiver.received.length;
    const now = Date.now();
    await withDatabase(options, async (db) => {
      for (let start = 0; start < DELIVERIES; start += 1000) {
        const ids = Array.from(
          { length: Math.min(1000, DELIVERIES - start) },
          (_, i) => `msg_bench_${now}_${start + i}`,
        );
        await db.kysely
          .insertInto('webhook_messages')
          .values(
            ids.map((id) => ({ id, type: 'webhook.test', body: '{"type":"webhook.test","data":{}}', created_ms: now })),
          )
          .execute();
        await db.kysely
          .insertInto('webhook_deliveries')
          .values(
            ids.map((id) => ({
              message_id: id,
              endpoint_id: endpoint,
              state: 'pending' as const,
              next_attempt_ms: now,
              created_ms: now,
            })),
          )
          .execute();
      }
    });
    const started = Date.now();
    await waitUntil(() => receiver.received.length - from >= DELIVERIES, 600_000);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `   sustained: ${fmt(DELIVERIES)} deliveries in ${seconds.toFixed(1)} s, ${fmt(DELIVERIES / seconds)}/s`,
    );
  } finally {
    await server.stop();
  }
}

/** One shipment of ROWS rows on a fresh database: by the console's upload (endpoint or not) or the API. */
async function shipOnce(
  options: EngineOptions,
  how: 'upload' | 'api',
  receiver: Receiver | null,
): Promise<AuditRunFigure> {
  await withDatabase(options, (db) => loadVolumeData(db, { records: 0 }));
  if (receiver) await addEndpoint(options, receiver.url);
  const secret = await withDatabase(options, async (db) => {
    const created = await createApiKey(
      db,
      { label: 'bench', scopes: ['shipments:write'], expiresOn: `${new Date().getUTCFullYear() + 1}-12-31` },
      SYSTEM,
    );
    return created.secret;
  });
  const file = shipmentCsv(ROWS, `W${Date.now()}`);
  const server = await startServerProcess(options, ENV);
  try {
    const cpuBefore = server.cpuSeconds();
    const started = Date.now();
    if (how === 'upload') {
      const client = new WebClient(server.base);
      if ((await client.login('admin_demo', DEMO_PASSWORD)).status !== 200) throw new Error('login failed');
      const answers = await uploadCsv(client, 'shipment.csv', file);
      const last = answers.at(-1)!;
      if (last.status !== 200) throw new Error(`upload: ${last.status}`);
    } else {
      const headers = {
        authorization: `Bearer ${secret}`,
        'content-type': 'text/csv',
        'idempotency-key': `bench-${started}`,
      };
      const response = await fetch(`${server.base}/veritas/api/v1/shipments/`, { method: 'POST', headers, body: file });
      const job = (await response.json()) as { id?: string; status?: string };
      if (response.status === 202) {
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          const poll = await fetch(`${server.base}/veritas/api/v1/shipments/${job.id}/`, {
            headers: { authorization: `Bearer ${secret}` },
          });
          const state = (await poll.json()) as { status: string };
          if (state.status !== 'processing') break;
        }
      } else if (response.status !== 200)
        throw new Error(`api/v1/shipments/: ${response.status} ${JSON.stringify(job)}`);
    }
    const seconds = (Date.now() - started) / 1000;
    const cpu = server.cpuSeconds() - cpuBefore;
    console.log(
      `   ${how}${receiver ? ' with an endpoint' : ''}: ${fmt(ROWS / seconds)} rows/s (${seconds.toFixed(1)} s)`,
    );
    return { rate: ROWS / seconds, perCpuSecond: ROWS / cpu };
  } finally {
    await server.stop();
  }
}

async function bench(label: string, options: EngineOptions) {
  const receiver = await startReceiver();
  try {
    console.log(`\n== ${label}: the simulator with an endpoint taking every event, and without`);
    const latencies: number[] = [];
    await comparePairs('the outbox', PAIRS, 'calls/s', (on, run) =>
      withFreshDatabase(options, run, (fresh) => simulateOnce(fresh, on ? receiver : null, latencies)),
    );
    console.log(
      `   scan → webhook received (record.submitted, ${fmt(latencies.length)} messages): p50 ${median(latencies).toFixed(0)} ms, p95 ${percentile(latencies, 0.95).toFixed(0)} ms`,
    );

    console.log(`\n== ${label}: ${fmt(DELIVERIES)} deliveries queued at once`);
    await withFreshDatabase(options, 100, (fresh) => deliveriesPerSecond(fresh, receiver));

    console.log(`\n== ${label}: a shipment of ${fmt(ROWS)} rows, uploaded with an endpoint and without`);
    const upload = await comparePairs('the outbox', PAIRS, 'rows/s', (on, run) =>
      withFreshDatabase(options, 200 + run, (fresh) => shipOnce(fresh, 'upload', on ? receiver : null)),
    );
    console.log(`\n== ${label}: the same shipment through api/v1/shipments/`);
    const api: number[] = [];
    for (let run = 0; run < PAIRS; run++)
      api.push((await withFreshDatabase(options, 300 + run, (fresh) => shipOnce(fresh, 'api', null))).rate);
    console.log(
      `   api/v1/shipments/ median ${fmt(median(api))} rows/s against the upload's ${fmt(upload.off.rate)} (load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
  } finally {
    await receiver.close();
  }
}

forEachEngine(bench).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
