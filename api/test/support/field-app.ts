// The mobile app's field steps over real HTTP, for tests that need records scanned at the
// doorstep, at a hub or at a return centre: shipments through api/upload/, app tokens, scans.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import { PASSWORD, uploadCsv, type TestApi } from './build';

const HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

export interface Item {
  hub?: string;
  brand?: string;
  model?: string;
}

const randomHex = (digits: number) => crypto.randomBytes(8).toString('hex').toUpperCase().slice(0, digits);
const colons = (hex: string) => hex.match(/../g)!.join(':');

export function fieldApp(api: TestApi, uploader = 'admin') {
  const tokens: Record<string, string> = {};
  let sequence = 0;

  async function call(path: string, body: unknown, who?: string): Promise<{ status: number; body: any }> {
    if (who && !tokens[who]) {
      const login = await fetch(`${api.url}/veritas/app/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: who, password: PASSWORD }),
      });
      tokens[who] = ((await login.json()) as { token: string }).token;
    }
    const response = await fetch(`${api.url}/veritas/app/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(who ? { authorization: `Bearer ${tokens[who]}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  }

  /** A fresh MAC of the registry organization's first MA-L block. */
  async function macOf(manufacturer = 'Samsung Electronics Co.,Ltd'): Promise<string> {
    const row = await api.db.kysely
      .selectFrom('oui_prefixes as p')
      .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
      .select('p.prefix')
      .where('m.manufacturer', '=', manufacturer)
      .where(sql<boolean>`length(p.prefix) = 6`)
      .orderBy('p.prefix')
      .executeTakeFirstOrThrow();
    return colons(row.prefix + randomHex(6));
  }

  return {
    tokenOf: (who: string) => tokens[who],
    call,
    macOf,
    /** Uploads one shipment of the items; their tracking IDs. */
    async ship(...items: Item[]): Promise<string[]> {
      const ids = items.map(() => `CASE-${++sequence}-${crypto.randomBytes(3).toString('hex')}`);
      const rows = items.map(
        ({ hub = 'HUB1', brand = 'Samsung', model = 'Galaxy S23' }, n) =>
          `${ids[n]},${hub},mobile,${brand},${model},false,,,`,
      );
      const answers = await uploadCsv(api.as[uploader]!, 'shipment.csv', `${HEADER}\n${rows.join('\n')}\n`);
      if (answers.at(-1)!.body.processed !== items.length) throw new Error(JSON.stringify(answers.at(-1)!.body));
      return ids;
    },
    /** A doorstep submission; `model` other than the shipment's is E007. */
    async submit(
      who: string,
      trackingId: string,
      { model = 'Galaxy S23', hardware = 'HW-1', mac }: { model?: string; hardware?: string; mac?: string } = {},
    ) {
      return call(
        'scan/submit/',
        { tracking_id: trackingId, mac_address: mac ?? (await macOf()), model, hardware_id: hardware },
        who,
      );
    },
    verify: (path: 'verify_hub' | 'verify_rc', who: string, trackingId: string, hardware = 'HW-1') =>
      call(`scan/${path}/`, { tracking_id: trackingId, hardware_id: hardware }, who),
  };
}
