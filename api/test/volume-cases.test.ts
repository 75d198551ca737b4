// The benchmark volume's cases (seed/volume-cases.ts), on both engines: one case per flagged
// record and none for the others, in the record's queue, due by its reason's hours, states and
// dispositions spread, each with its 'opened' entry; the rule of one open case per tracking ID
// holds, and a second run on a database that already has them makes none.
import { CASE_REASONS } from '@veritas/shared/domain';
import { DEFAULT_DUE_HOURS } from '../src/db/migrations/018-cases';
import type { Db } from '../src/db/schema';
import { migrateToLatest, openDatabase } from '../src/server';
import { loadVolumeCases } from '../seed/volume-cases';
import { loadVolumeData } from '../seed/volume-data';
import { freshDatabase } from './support/build';

async function withDatabase(work: (db: Db) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase();
  const db = openDatabase(fresh.options);
  try {
    await migrateToLatest(db);
    await work(db);
  } finally {
    await db.kysely.destroy();
    await fresh.drop();
  }
}

test('the volume loader opens one case per flagged record, spread over the states, each with its opened entry', async () => {
  await withDatabase(async (db) => {
    await loadVolumeData(db, { records: 4000, hubs: 6, seed: 7 });
    const made = await loadVolumeCases(db);
    const records = await db.kysely
      .selectFrom('device_records as d')
      .leftJoin('users as u', 'u.id', 'd.submitted_by_id')
      .leftJoin('groups as g', 'g.id', 'u.group_id')
      .select(['d.tracking_id', 'd.hub_code', 'd.device_result', 'd.submit_time', 'g.code'])
      .execute();
    const flagged = records.filter((r) => (CASE_REASONS as readonly (string | null)[]).includes(r.device_result));
    expect(flagged.length).toBeGreaterThan(records.length / 4);

    const cases = await db.kysely.selectFrom('cases').selectAll().execute();
    expect(made.cases).toBe(cases.length);
    // Flagged records only, one each.
    expect(cases.map((c) => c.tracking_id).sort()).toEqual(flagged.map((r) => r.tracking_id).sort());
    const byTracking = new Map(flagged.map((r) => [r.tracking_id, r]));
    for (const c of cases) {
      const record = byTracking.get(c.tracking_id)!;
      expect(c.reason).toBe(record.device_result);
      expect(c.queue).toBe((record.hub_code ?? record.code ?? '').toUpperCase());
      expect(c.opened_at).toBe(record.submit_time);
      expect(Date.parse(c.due_at) - Date.parse(c.opened_at)).toBe(DEFAULT_DUE_HOURS[c.reason]! * 3_600_000);
      expect(c.version).toBe(1);
      if (c.state === 'resolved') {
        expect(c.disposition).not.toBeNull();
        expect(c.resolved_at! >= c.opened_at).toBe(true);
        expect(c.updated_at).toBe(c.resolved_at);
        expect(c.assignee_id).not.toBeNull();
      } else {
        expect(c.disposition).toBeNull();
        expect(c.resolved_at).toBeNull();
      }
      if (c.state === 'in_review') expect(c.assignee_id).not.toBeNull();
    }

    // States and dispositions spread: about 55% open, 15% in review, 30% resolved.
    const share = (state: string) => cases.filter((c) => c.state === state).length / cases.length;
    expect(share('open')).toBeGreaterThan(0.45);
    expect(share('open')).toBeLessThan(0.65);
    expect(share('in_review')).toBeGreaterThan(0.08);
    expect(share('in_review')).toBeLessThan(0.22);
    expect(share('resolved')).toBeGreaterThan(0.22);
    expect(share('resolved')).toBeLessThan(0.38);
    expect(new Set(cases.map((c) => c.disposition)).size).toBe(6); // five dispositions and null
    const open = cases.filter((c) => c.state === 'open');
    const assigned = open.filter((c) => c.assignee_id !== null).length / open.length;
    expect(assigned).toBeGreaterThan(0.25);
    expect(assigned).toBeLessThan(0.55);
    const workers = new Set(
      (
        await db.kysely
          .selectFrom('users')
          .select('id')
          .where('role', 'in', ['central_ops', 'admin', 'super_admin'])
          .execute()
      ).map((u) => u.id),
    );
    expect(cases.every((c) => c.assignee_id === null || workers.has(c.assignee_id))).toBe(true);

    // Each case its 'opened' entry.
    const events = await db.kysely.selectFrom('case_events').selectAll().execute();
    expect(events.length).toBe(cases.length);
    const caseById = new Map(cases.map((c) => [c.id, c]));
    for (const event of events) {
      const c = caseById.get(event.case_id)!;
      expect(event.kind).toBe('opened');
      expect(event.at).toBe(c.opened_at);
      expect(event.actor_id).toBe(c.opened_by_id);
      expect(JSON.parse(event.details!)).toMatchObject({ result: c.reason, queue: c.queue });
    }

    // The unique open-case index is there and holds.
    const active = cases.find((c) => c.state !== 'resolved')!;
    const { id: _id, ...copy } = active;
    // (The error read as text: better-sqlite3's errors come from the realm of the first test file that loaded it.)
    const second = await db.kysely
      .insertInto('cases')
      .values(copy)
      .execute()
      .then(
        () => 'inserted',
        (error: unknown) => String(error),
      );
    expect(second).toMatch(/unique|duplicate/i);
    await db.kysely
      .insertInto('cases')
      .values({ ...copy, state: 'resolved' })
      .execute();

    // A second run, as on a database that already holds them: no case made twice.
    expect((await loadVolumeCases(db)).cases).toBe(0);
    expect(
      Number(
        (
          await db.kysely
            .selectFrom('cases')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(cases.length + 1);
  });
});

test('made alone on a database that holds records without cases, the cases are the same', async () => {
  await withDatabase(async (db) => {
    await loadVolumeData(db, { records: 1500, hubs: 4, seed: 11 });
    await loadVolumeCases(db);
    const first = await db.kysely.selectFrom('cases').selectAll().orderBy('tracking_id').execute();
    await db.kysely.deleteFrom('case_events').execute();
    await db.kysely.deleteFrom('cases').execute();
    const made = await loadVolumeCases(db, { chunk: 400 });
    const again = await db.kysely.selectFrom('cases').selectAll().orderBy('tracking_id').execute();
    expect(made.cases).toBe(first.length);
    // The resolutions of the last two days stop at the time of each run.
    const strip = ({ id: _id, resolved_at: _r, updated_at: _u, ...rest }: (typeof first)[number]) => rest;
    expect(again.map(strip)).toEqual(first.map(strip));
  });
});
