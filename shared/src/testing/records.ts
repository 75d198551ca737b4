// Device records for tests and benchmarks, in the shape api/get_status/ answers (DeviceRecord):
// makeRecord for the one record a test needs, volumeRecord for the i-th record of a realistic
// data set of any size (the API's bulk loader stores them, api/seed/volume-data.ts). No React, no
// DOM: the API compiles it in through @veritas/shared/testing/records.
import type { DeviceRecord, DeviceType, TrackingInfo } from '../types';

/** A pending record with every field filled; `overrides` replace any part, tracking_id field by field. */
export function makeRecord(
  overrides: Partial<Omit<DeviceRecord, 'tracking_id'>> & { tracking_id?: Partial<TrackingInfo> } = {},
): DeviceRecord {
  const { tracking_id, ...rest } = overrides;
  return {
    id: 1,
    tracking_id: {
      tracking_id: 'TRK-0001',
      hub_code: 'HUB01',
      created_date: '2025-03-01T10:00:00.000Z',
      device_type: 'mobile',
      is_Blindpick: false,
      Blind_brand: null,
      Blind_model: null,
      device_model_name: 'Galaxy S24',
      device_brand: 'Samsung',
      ...tracking_id,
    },
    is_submit: false,
    submit_time: null,
    submitted_by: null,
    submitted_device_name: null,
    submitted_manufacturer: null,
    is_verified: false,
    verify_time: null,
    verified_by: null,
    is_verified_rc: false,
    verified_by_rc: null,
    verify_time_rc: null,
    is_verified_rc_by: false,
    device_result: null,
    ...rest,
  };
}

/** A uniform source in [0, 1) with picks from it; seeded, it makes a volume repeatable. */
export interface RandomSource {
  /** Uniform in [0, 1). */
  next(): number;
  pick<T>(items: readonly T[]): T;
  /** true with probability p. */
  chance(p: number): boolean;
}

/** A seeded source (mulberry32: small, fast and good enough for test data): one seed, one sequence. */
export function seededRandom(seed: number): RandomSource {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: (items) => items[Math.floor(next() * items.length)]!, chance: (p) => next() < p };
}

/** A device a shipment expects, and the registry organization that makes it. */
export interface VolumeDevice {
  type: DeviceType | '';
  brand: string;
  model: string;
  manufacturer: string;
}

/** A hub and who works its items: the operator at the doorstep, the hub's verifier, the return centre's. */
export interface VolumeHub {
  code: string;
  operator: string;
  verifier: string;
  rc: string;
}

export interface VolumeOptions {
  rand: RandomSource;
  /** Records were created over the SPAN_DAYS days before it (ms); later steps have not happened yet. */
  now: number;
  /**
   * How many records the volume holds. Record i was created about i/count of the way through the
   * span, so the records are numbered, and a loader stores them, in the order they were created, as
   * shipments are uploaded day after day: a day's records share the table's pages.
   */
  count: number;
  hubs: readonly VolumeHub[];
  devices: readonly VolumeDevice[];
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
export const VOLUME_SPAN_DAYS = 45;
/** Stored results besides 'passed', some of them codes no rule gives any more, as older data holds. */
const ERROR_CODES = ['E004', 'E005', 'E006', 'E007', 'E008', 'E009', 'E010'];

/**
 * The i-th record of a volume: every state (pending about a fifth, submitted, verified at hub,
 * detached), nearly half of the submissions with an error code, one in seven a blind pick. Rare
 * cases (missing or invalid values, as older data holds, and operators' accounts removed since) are
 * placed by index, not by chance, so every data set of a few hundred records holds each of them.
 * Records are drawn from `rand` in order, one at a time: a seeded source and a fixed `now` give the
 * same volume, and a loader keeps only a batch in memory whatever the size.
 */
export function volumeRecord(i: number, { rand, now, count, hubs, devices }: VolumeOptions): DeviceRecord {
  const hub = rand.pick(hubs);
  const { type, brand, model, manufacturer } = rand.pick(devices);
  const isBlindpick = i % 7 === 3;
  // Anywhere within the record's own slot of the span, the last slot ending now.
  const created = now - (1 - (i + rand.next()) / count) * VOLUME_SPAN_DAYS * DAY_MS;
  const at = (ms: number) => new Date(ms).toISOString();

  // States: pending, submitted, verified at hub, detached. A step in the future has not happened.
  const stage = rand.next();
  const submittedAt = created + (0.5 + rand.next() * 36) * HOUR_MS;
  const submitted = stage >= 0.22 && submittedAt <= now;
  const result = submitted ? (rand.next() < 0.55 ? 'passed' : rand.pick(ERROR_CODES)) : null;
  const verifiedAt = submitted ? submittedAt + (1 + rand.next() * 48) * HOUR_MS : 0;
  const verified = submitted && stage >= 0.52 && verifiedAt <= now;
  const detachedAt = verified ? verifiedAt + (6 + rand.next() * 72) * HOUR_MS : 0;
  const detached = verified && stage >= 0.85 && detachedAt <= now;

  // One literal rather than makeRecord's spreads: a bulk loader builds millions of them.
  return {
    id: i + 1,
    tracking_id: {
      tracking_id: `FMPP${String(3_100_000_000 + i)}`,
      hub_code: i % 307 === 11 ? null : hub.code,
      created_date: i % 97 === 13 ? null : i % 101 === 7 ? 'not-a-date' : at(created),
      device_type: i % 113 === 17 ? null : type,
      is_Blindpick: isBlindpick,
      Blind_brand: isBlindpick && i % 11 !== 0 ? brand : null,
      Blind_model: isBlindpick && i % 13 !== 0 ? model : null,
      device_model_name: isBlindpick || i % 23 === 5 ? null : model,
      device_brand: isBlindpick || i % 29 === 5 ? null : brand,
    },
    is_submit: submitted,
    submit_time: submitted ? at(submittedAt) : null,
    // A few operators' accounts were removed since.
    submitted_by: submitted && i % 211 !== 5 ? { username: hub.operator } : null,
    submitted_device_name: submitted ? (result === 'E007' ? `${model} Lite` : model) : null,
    submitted_manufacturer: submitted ? manufacturer : null,
    is_verified: verified,
    verify_time: verified ? at(verifiedAt) : null,
    verified_by: verified ? { username: hub.verifier } : null,
    is_verified_rc: detached,
    verified_by_rc: detached ? { username: hub.rc } : null,
    verify_time_rc: detached ? at(detachedAt) : null,
    is_verified_rc_by: detached,
    device_result: result,
  };
}
