// api/whitelable/ and api/get_manufacturer/ (docs/screens.md#white-labeled-brands, docs/screens.md#server-side-rights):
// brands and their manufacturers, searched over the IEEE OUI registry that migration 003 loads.
import { readOuiRegistry } from '../src/db/oui-registry';
import { ADMIN_USERNAME, build } from './support/build';

const api = build({
  groups: [{ code: 'HUB1', organization: 'hub' }],
  users: [
    { username: 'ops1', role: 'central_ops' },
    { username: 'incharge1', role: 'incharge', group: 'HUB1' },
    { username: 'exec1', role: 'executive', group: 'HUB1' },
    { username: 'admin1', role: 'admin' },
  ],
  signIn: {
    super_admin: ADMIN_USERNAME,
    admin: 'admin1',
    central_ops: 'ops1',
    incharge: 'incharge1',
    executive: 'exec1',
  },
});
const { as } = api;

type Found = { id: number; manufacturer: string }[];
const search = async (text: string, client = as.admin!) =>
  client.get<Found>(`api/get_manufacturer/?search=${encodeURIComponent(text)}`);
const names = (found: Found) => found.map((m) => m.manufacturer);

let counter = 0;
/** A brand name no other test uses. */
const newBrandName = (prefix = 'Brand') => `${prefix} ${++counter}`;

async function createBrand(brand = newBrandName()): Promise<{ id: number; brand: string }> {
  const answer = await as.admin!.post('api/whitelable/', { brand, data: [] });
  if (answer.status !== 201) throw new Error(`create ${brand}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function listed(brandId: number): Promise<string[] | undefined> {
  const answer = await as.admin!.get('api/whitelable/');
  return answer.body.find((b: { id: number }) => b.id === brandId)?.white_labeled_brands.data;
}

describe('get_manufacturer: search over the IEEE OUI registry', () => {
  test('the registry is loaded by the migration: searching "apple" finds "Apple, Inc."', async () => {
    const answer = await search('apple');
    expect(answer.status).toBe(200);
    expect(answer.body).toContainEqual({ id: expect.any(Number), manufacturer: 'Apple, Inc.' });
  });

  test('matching is case-insensitive and on any part of the name', async () => {
    expect(names((await search('APPLE')).body)).toEqual(names((await search('apple')).body));
    expect(names((await search('SUNG ELECTRONICS CO.,')).body)).toContain('Samsung Electronics Co.,Ltd');
  });

  test('names starting with the search come first, each group in alphabetical order', async () => {
    const found = names((await search('samsung')).body);
    const starts = found.filter((n) => n.toLowerCase().startsWith('samsung'));
    const contains = found.filter((n) => !n.toLowerCase().startsWith('samsung'));
    expect(starts.length).toBeGreaterThan(0);
    expect(contains).toContain('Toshiba Samsung Storage Technolgoy Korea Corporation');
    const byKey = (list: string[]) => [...list].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    expect(found).toEqual([...byKey(starts), ...byKey(contains)]);
  });

  test('answers at most 50 manufacturers', async () => {
    expect((await search('a')).body).toHaveLength(50);
  });

  test('LIKE wildcards in the search are literal: "%" matches no name, "_" only names containing "_"', async () => {
    expect((await search('%')).body).toEqual([]);
    const underscored = names((await search('_')).body);
    expect(underscored.length).toBeGreaterThan(0);
    expect(underscored.every((n) => n.includes('_'))).toBe(true);
    expect(names((await search('a\\s')).body)).toEqual(['Watts A\\S']);
  });

  test('an empty search answers the first 50 names alphabetically', async () => {
    const expected = readOuiRegistry()
      .manufacturers.map((name) => ({ name, key: name.toLowerCase() }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .slice(0, 50)
      .map((m) => m.name);
    expect(names((await search('')).body)).toEqual(expected);
    expect(names((await as.admin!.get('api/get_manufacturer/')).body)).toEqual(expected);
  });

  test('names are distinct case- and space-insensitively, spelled as the registry spells them most often', async () => {
    const sharp = names((await search('sharp corporation')).body).filter(
      (n) => n.toLowerCase() === 'sharp corporation',
    );
    expect(sharp).toEqual(['SHARP Corporation']);
    expect(names((await search('  sharp   corporation ')).body)).toContain('SHARP Corporation');
  });

  test("assignments to 'Private' are not manufacturers", async () => {
    expect(names((await search('private')).body)).not.toContain('Private');
  });

  test('a search longer than 100 characters is refused with 400 and a message', async () => {
    const answer = await search('x'.repeat(101));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ message: expect.any(String), detail: expect.any(String) }));
  });

  test('a repeated ?search= (a list) and a search holding a NUL are refused with 400 and their message (docs/errors.md)', async () => {
    const repeated = await as.admin!.get('api/get_manufacturer/?search=a&search=b');
    expect(repeated.status).toBe(400);
    expect(repeated.body).toMatchObject({ field: 'search', message: 'search must be text.' });
    const nul = await search('a\u0000');
    expect(nul.status).toBe(400);
    expect(nul.body).toMatchObject({
      field: 'search',
      message: 'search must be text without NUL characters or unpaired surrogates.',
    });
  });

  test('the OUI prefixes are loaded too, for mapping a MAC address to its manufacturer', async () => {
    const rows = await api.db.kysely
      .selectFrom('oui_prefixes as p')
      .innerJoin('manufacturers as m', 'm.id', 'p.manufacturer_id')
      .select(['p.prefix', 'm.manufacturer'])
      .where('p.prefix', 'in', ['000393', 'F0D1A9', '70B3D5123'])
      .orderBy('p.prefix')
      .execute();
    expect(rows).toEqual([
      { prefix: '000393', manufacturer: 'Apple, Inc.' },
      { prefix: '70B3D5123', manufacturer: 'Amfitech ApS' },
      { prefix: 'F0D1A9', manufacturer: 'Apple, Inc.' },
    ]);
  });
});

describe('whitelable: brand add (POST with empty data)', () => {
  test('creates the brand: 201 with {id, brand, white_labeled_brands: {data: []}}, the name trimmed', async () => {
    const answer = await as.admin!.post('api/whitelable/', { brand: '  Acme Home  ', data: [] });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ id: expect.any(Number), brand: 'Acme Home', white_labeled_brands: { data: [] } });
  });

  test('without data it creates too', async () => {
    expect((await as.admin!.post('api/whitelable/', { brand: newBrandName() })).status).toBe(201);
  });

  test("brand names are unique case-insensitively: 409 'This brand already exists'", async () => {
    const { brand } = await createBrand(newBrandName('Nova'));
    const answer = await as.admin!.post('api/whitelable/', { brand: ` ${brand.toUpperCase()} `, data: [] });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual(
      expect.objectContaining({ message: 'This brand already exists', detail: 'This brand already exists' }),
    );
  });

  test.each([
    ['an empty name', ''],
    ['a blank name', '   '],
    ['no name', undefined],
  ])("%s is refused: 400 'Please enter a brand name'", async (_case, brand) => {
    const answer = await as.admin!.post('api/whitelable/', { brand, data: [] });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ message: 'Please enter a brand name', field: 'brand' }));
  });

  test('a name longer than 128 characters is refused with 400', async () => {
    const answer = await as.admin!.post('api/whitelable/', { brand: 'b'.repeat(129), data: [] });
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('brand');
  });
});

describe('whitelable: brand update (POST with data, or with id)', () => {
  test("with id: replaces the list (200), in the order sent, in the registry's spelling", async () => {
    const { id, brand } = await createBrand();
    const answer = await as.admin!.post('api/whitelable/', {
      id,
      brand,
      data: ['Samsung Electronics Co.,Ltd', 'apple, inc.'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id,
      brand,
      white_labeled_brands: { data: ['Samsung Electronics Co.,Ltd', 'Apple, Inc.'] },
    });
    expect(await listed(id)).toEqual(['Samsung Electronics Co.,Ltd', 'Apple, Inc.']);

    const again = await as.admin!.post('api/whitelable/', { id, brand, data: ['Apple, Inc.'] });
    expect(again.body.white_labeled_brands.data).toEqual(['Apple, Inc.']);
    expect(await listed(id)).toEqual(['Apple, Inc.']);
  });

  test('without id, non-empty data updates the brand found case-insensitively by name (200)', async () => {
    const { id, brand } = await createBrand();
    const answer = await as.admin!.post('api/whitelable/', { brand: brand.toLowerCase(), data: ['Apple, Inc.'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ id, brand, white_labeled_brands: { data: ['Apple, Inc.'] } });
  });

  test('without id, data for a brand that does not exist answers 404 and creates nothing', async () => {
    const brand = newBrandName('Ghost');
    const answer = await as.admin!.post('api/whitelable/', { brand, data: ['Apple, Inc.'] });
    expect(answer.status).toBe(404);
    expect(answer.body.message).toEqual(expect.any(String));
    expect((await as.admin!.get('api/whitelable/')).body.map((b: { brand: string }) => b.brand)).not.toContain(brand);
  });

  test('with id and an empty list, the list is emptied (not mistaken for a create)', async () => {
    const { id, brand } = await createBrand();
    await as.admin!.post('api/whitelable/', { id, brand, data: ['Apple, Inc.'] });
    const answer = await as.admin!.post('api/whitelable/', { id, brand, data: [] });
    expect(answer.status).toBe(200);
    expect(answer.body.white_labeled_brands.data).toEqual([]);
    expect(await listed(id)).toEqual([]);
  });

  test('names the registry does not know are refused with 400 listing them; the saved list is kept', async () => {
    const { id, brand } = await createBrand();
    await as.admin!.post('api/whitelable/', { id, brand, data: ['Apple, Inc.'] });
    const answer = await as.admin!.post('api/whitelable/', {
      id,
      brand,
      data: ['Apple, Inc.', 'Not A Maker Ltd', 'Nobody GmbH'],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.unknown).toEqual(['Not A Maker Ltd', 'Nobody GmbH']);
    expect(answer.body.message).toContain('Not A Maker Ltd');
    expect(await listed(id)).toEqual(['Apple, Inc.']);
  });

  test('duplicates are dropped case-insensitively, keeping the first in order', async () => {
    const { id, brand } = await createBrand();
    const answer = await as.admin!.post('api/whitelable/', {
      id,
      brand,
      data: ['Apple, Inc.', ' SHARP corporation ', 'APPLE, INC.'],
    });
    expect(answer.body.white_labeled_brands.data).toEqual(['Apple, Inc.', 'SHARP Corporation']);
  });

  test.each([
    ['data that is not a list', { data: 'Apple, Inc.' }, 'data'],
    ['a blank manufacturer name', { data: ['Apple, Inc.', ' '] }, 'data'],
    ['more than 500 manufacturers', { data: Array.from({ length: 501 }, (_, i) => `Maker ${i}`) }, 'data'],
    ['an id that is not a brand id', { id: 'abc', data: [] }, 'id'],
  ])('%s is refused with 400', async (_case, extra, field) => {
    const { id, brand } = await createBrand();
    const answer = await as.admin!.post('api/whitelable/', { id, brand, ...extra });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(expect.objectContaining({ field, message: expect.any(String) }));
  });

  test('an unknown id answers 404; an id whose brand has another name answers 400', async () => {
    const { id } = await createBrand();
    expect((await as.admin!.post('api/whitelable/', { id: 999999, brand: 'X', data: [] })).status).toBe(404);
    const mismatch = await as.admin!.post('api/whitelable/', { id, brand: 'Someone Else', data: ['Apple, Inc.'] });
    expect(mismatch.status).toBe(400);
    expect(await listed(id)).toEqual([]);
  });
});

describe('whitelable: GET', () => {
  test('answers every brand ordered by name (case-insensitively), each with its list, in the brand shape the console reads', async () => {
    const zeta = await createBrand(newBrandName('zeta'));
    const alpha = await createBrand(newBrandName('Alpha'));
    await as.admin!.post('api/whitelable/', { id: alpha.id, brand: alpha.brand, data: ['Apple, Inc.'] });
    const answer = await as.executive!.get('api/whitelable/');
    expect(answer.status).toBe(200);
    const brands = answer.body as { id: number; brand: string; white_labeled_brands: { data: string[] } }[];
    expect(brands.map((b) => b.brand)).toEqual(
      [...brands.map((b) => b.brand)].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)),
    );
    expect(brands).toContainEqual({
      id: alpha.id,
      brand: alpha.brand,
      white_labeled_brands: { data: ['Apple, Inc.'] },
    });
    expect(brands).toContainEqual({ id: zeta.id, brand: zeta.brand, white_labeled_brands: { data: [] } });
  });
});

describe('roles (docs/screens.md#server-side-rights: white-label changes are for admin and super_admin)', () => {
  test.each(['admin', 'super_admin'])('%s may add and update brands', async (role) => {
    const brand = newBrandName(role);
    const created = await as[role]!.post('api/whitelable/', { brand, data: [] });
    expect(created.status).toBe(201);
    expect(
      (await as[role]!.post('api/whitelable/', { id: created.body.id, brand, data: ['Apple, Inc.'] })).status,
    ).toBe(200);
  });

  test.each(['executive', 'incharge', 'central_ops'])(
    '%s gets 403 with a message for any POST and nothing changes',
    async (role) => {
      const { id, brand } = await createBrand();
      const refusedCreate = await as[role]!.post('api/whitelable/', { brand: newBrandName(role), data: [] });
      expect(refusedCreate.status).toBe(403);
      expect(refusedCreate.body.message).toEqual(expect.any(String));
      expect((await as[role]!.post('api/whitelable/', { id, brand, data: ['Apple, Inc.'] })).status).toBe(403);
      expect(await listed(id)).toEqual([]);
    },
  );

  test.each(['executive', 'incharge', 'central_ops'])('%s may list brands and search manufacturers', async (role) => {
    expect((await as[role]!.get('api/whitelable/')).status).toBe(200);
    expect((await search('apple', as[role])).status).toBe(200);
  });

  test('without a session every call answers 401', async () => {
    const anonymous = api.client();
    await anonymous.get('user/is_LoggedIn/'); // receives the XSRF cookie, so the POST reaches the route
    expect((await anonymous.get('api/whitelable/')).status).toBe(401);
    expect((await anonymous.get('api/get_manufacturer/?search=apple')).status).toBe(401);
    expect((await anonymous.post('api/whitelable/', { brand: newBrandName(), data: [] })).status).toBe(401);
  });
});
