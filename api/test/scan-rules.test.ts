// The verification rules of a doorstep scan (src/scan/rules.ts, docs/field-scans.md#check-order, E001–E007), alone.
import { normalizeMac } from '../src/scan/field-scans';
import { checkScan, manufacturerIsBrand, sameModel, type ExpectedItem, type ScanFacts } from '../src/scan/rules';

const item = (changes: Partial<ExpectedItem> = {}): ExpectedItem => ({
  hubCode: 'BLR01',
  isBlindpick: false,
  deviceBrand: 'Samsung',
  deviceModel: 'Galaxy S23',
  blindBrand: null,
  blindModel: null,
  isSubmitted: false,
  submittedById: null,
  ...changes,
});

const facts = (changes: Partial<ScanFacts> = {}): ScanFacts => ({
  item: item(),
  operator: { id: 7, hubCode: 'BLR01' },
  macCapturedBy: null,
  manufacturer: 'Samsung Electronics Co.,Ltd',
  brandExcluded: false,
  whiteLabels: [],
  scannedModel: 'Galaxy S23',
  ...changes,
});

const result = (changes: Partial<ScanFacts> = {}) => checkScan(facts(changes)).result;

describe('checkScan: one rule per code, in order', () => {
  test("passed: the right item of the operator's hub, a new MAC, the brand's manufacturer, the expected model", () => {
    expect(checkScan(facts())).toEqual({
      result: 'passed',
      expected: { brand: 'Samsung', model: 'Galaxy S23' },
      found: { manufacturer: 'Samsung Electronics Co.,Ltd', model: 'Galaxy S23' },
    });
  });

  test('E001: the tracking ID is not stored', () => {
    expect(checkScan(facts({ item: null }))).toMatchObject({ result: 'E001', expected: { brand: null, model: null } });
  });

  test("E002: the record's hub is not the operator's (case aside), or either has none", () => {
    expect(result({ operator: { id: 7, hubCode: 'DEL02' } })).toBe('E002');
    expect(result({ operator: { id: 7, hubCode: 'blr01' } })).toBe('passed');
    expect(result({ operator: { id: 7, hubCode: null } })).toBe('E002');
    expect(result({ item: item({ hubCode: null }) })).toBe('E002');
  });

  test('E003: already submitted by another operator; the same operator may submit again', () => {
    expect(result({ item: item({ isSubmitted: true, submittedById: 8 }) })).toBe('E003');
    expect(result({ item: item({ isSubmitted: true, submittedById: null }) })).toBe('E003');
    expect(result({ item: item({ isSubmitted: true, submittedById: 7 }) })).toBe('passed');
  });

  test('E004: the MAC address was captured for another tracking ID', () => {
    expect(result({ macCapturedBy: 'FMPP0001' })).toBe('E004');
  });

  test('E005: no manufacturer found for the MAC and the brand is not on the exclude list', () => {
    expect(result({ manufacturer: null })).toBe('E005');
  });

  test('E006: the manufacturer is neither the brand nor one of its white-labelled manufacturers', () => {
    const outcome = checkScan(facts({ manufacturer: 'Apple, Inc.' }));
    expect(outcome).toMatchObject({
      result: 'E006',
      expected: { brand: 'Samsung' },
      found: { manufacturer: 'Apple, Inc.' },
    });
  });

  test('E007: the scanned model differs from the expected one', () => {
    expect(checkScan(facts({ scannedModel: 'Galaxy S23+' }))).toMatchObject({
      result: 'E007',
      expected: { model: 'Galaxy S23' },
      found: { model: 'Galaxy S23+' },
    });
  });

  test('the first failing rule gives the result', () => {
    const everythingWrong = {
      operator: { id: 7, hubCode: 'DEL02' },
      macCapturedBy: 'X',
      manufacturer: null,
      scannedModel: 'Other',
    };
    expect(result({ ...everythingWrong, item: null })).toBe('E001');
    expect(result(everythingWrong)).toBe('E002');
    expect(
      result({
        ...everythingWrong,
        operator: { id: 7, hubCode: 'BLR01' },
        item: item({ isSubmitted: true, submittedById: 8 }),
      }),
    ).toBe('E003');
    expect(result({ macCapturedBy: 'X', manufacturer: null, scannedModel: 'Other' })).toBe('E004');
    expect(result({ manufacturer: null, scannedModel: 'Other' })).toBe('E005');
    expect(result({ manufacturer: 'Apple, Inc.', scannedModel: 'Other' })).toBe('E006');
  });
});

describe('checkScan: expectations', () => {
  test('blind pick: the blind brand and model are the expected ones', () => {
    const blind = item({
      isBlindpick: true,
      deviceBrand: null,
      deviceModel: null,
      blindBrand: 'Apple',
      blindModel: 'iPhone 14',
    });
    expect(checkScan(facts({ item: blind, manufacturer: 'Apple, Inc.', scannedModel: 'iPhone 14' }))).toMatchObject({
      result: 'passed',
      expected: { brand: 'Apple', model: 'iPhone 14' },
    });
    expect(result({ item: blind })).toBe('E006');
  });

  test('white label: a manufacturer listed for the brand is accepted, case and punctuation aside', () => {
    const hp = item({ deviceBrand: 'HP', deviceModel: 'Pavilion 14' });
    expect(result({ item: hp, manufacturer: 'Hewlett Packard', scannedModel: 'Pavilion 14' })).toBe('E006');
    expect(
      result({
        item: hp,
        manufacturer: 'Hewlett Packard',
        scannedModel: 'Pavilion 14',
        whiteLabels: ['HEWLETT PACKARD'],
      }),
    ).toBe('passed');
  });

  test('exclude list: an exempt brand skips the manufacturer check (no E005, no E006), not the model check', () => {
    expect(result({ brandExcluded: true, manufacturer: null })).toBe('passed');
    expect(result({ brandExcluded: true, manufacturer: 'Apple, Inc.' })).toBe('passed');
    expect(result({ brandExcluded: true, manufacturer: null, scannedModel: 'Other' })).toBe('E007');
  });

  test('an expectation the shipment left empty cannot be contradicted', () => {
    expect(result({ item: item({ deviceBrand: null }), manufacturer: null })).toBe('passed');
    expect(result({ item: item({ deviceModel: null }), scannedModel: 'anything' })).toBe('passed');
  });
});

describe('manufacturerIsBrand', () => {
  test.each([
    ['Samsung Electronics Co.,Ltd', 'Samsung', true],
    ['SAMSUNG ELECTRO-MECHANICS(THAILAND)', 'samsung', true],
    ['OnePlus Technology (Shenzhen) Co., Ltd', 'One Plus', true],
    ['Apple, Inc.', 'Apple', true],
    ['Vivotek, Inc.', 'Vivo', false],
    ['LG Innotek', 'LG', true],
    ['Dell Inc.', 'HP', false],
    ['Anything', '', false],
  ])('%s is %s: %s', (manufacturer, brand, expected) => {
    expect(manufacturerIsBrand(manufacturer, brand)).toBe(expected);
  });
});

describe('sameModel (E007 ignores case and spacing only)', () => {
  test.each([
    ['Galaxy S23', 'galaxy s23', true],
    ['Galaxy S23', 'GalaxyS23', true],
    ['Galaxy  S23', ' Galaxy S23 ', true],
    ['Galaxy S23', 'Galaxy S23+', false],
    ['Galaxy S23', 'Galaxy-S23', false],
  ])('%s vs %s: %s', (expected, scanned, same) => {
    expect(sameModel(expected, scanned)).toBe(same);
  });
});

describe('normalizeMac', () => {
  test.each([
    ['aa:bb:cc:dd:ee:ff', 'AABBCCDDEEFF'],
    ['AA-BB-CC-DD-EE-FF', 'AABBCCDDEEFF'],
    ['aabb.ccdd.eeff', 'AABBCCDDEEFF'],
    [' 001122334455 ', '001122334455'],
    ['aa:bb-cc:dd:ee:ff', null],
    ['aa:bb:cc:dd:ee', null],
    ['gg:bb:cc:dd:ee:ff', null],
    ['', null],
  ])('%j → %j', (text, mac) => {
    expect(normalizeMac(text)).toBe(mac);
  });
});
