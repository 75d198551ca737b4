// Shipments of field work: items to collect, and the shipment CSV that brings them in through
// api/upload/ (docs/csv.md#shipment-upload).
import { CATALOGUE } from './catalogue';
import type { ShipmentItem } from './field-work';
import type { RandomSource } from '@veritas/shared/testing/records';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Share of items that name the device only by a blind brand and model. */
const BLIND_PICKS = 1 / 7;

export interface ShipmentOptions {
  count: number;
  hubs: readonly string[];
  /** Tracking IDs are `${prefix}${number}`. */
  prefix: string;
  /** Items were created over the `spanDays` days before `now`. */
  now: number;
  spanDays: number;
}

export function makeShipment(
  rand: RandomSource,
  { count, hubs, prefix, now, spanDays }: ShipmentOptions,
): ShipmentItem[] {
  const items: ShipmentItem[] = [];
  for (let i = 0; i < count; i++) {
    items.push({
      tracking_id: `${prefix}${String(i + 1).padStart(7, '0')}`,
      hub_code: rand.pick(hubs),
      created: new Date(now - rand.next() * spanDays * DAY_MS),
      device: rand.pick(CATALOGUE),
      blindPick: rand.chance(BLIND_PICKS),
    });
  }
  return items;
}

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

/** A CSV cell: quoted when it holds a comma, quote or line break (RFC 4180). */
const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

export function shipmentCsv(items: readonly ShipmentItem[]): string {
  const lines = items.map(({ tracking_id, hub_code, device, blindPick, created }) =>
    [
      tracking_id,
      hub_code,
      device.type,
      blindPick ? '' : device.brand,
      blindPick ? '' : device.model,
      blindPick ? 'true' : 'false',
      blindPick ? device.brand : '',
      blindPick ? device.model : '',
      created.toISOString(),
    ]
      .map(cell)
      .join(','),
  );
  return `${[HEADER, ...lines].join('\n')}\n`;
}
