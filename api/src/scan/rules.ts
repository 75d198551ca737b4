// The verification rules of a doorstep scan (docs/field-scans.md#device-error-codes, E001–E007), in the order
// they apply. Pure: the caller gathers the facts from the database, so the rules can be tested
// alone and the demo data, the simulator and the mobile app's calls all judge devices alike.

export type CheckCode = 'E001' | 'E002' | 'E003' | 'E004' | 'E005' | 'E006' | 'E007';
export type CheckResult = 'passed' | CheckCode;

/** What a shipment row expects, as stored. */
export interface ExpectedItem {
  hubCode: string | null;
  isBlindpick: boolean;
  deviceBrand: string | null;
  deviceModel: string | null;
  blindBrand: string | null;
  blindModel: string | null;
  isSubmitted: boolean;
  /** Who submitted it; null also when that account has since been deleted. */
  submittedById: number | null;
}

export interface ScanFacts {
  /** The stored item of the scanned tracking ID, or null when there is none. */
  item: ExpectedItem | null;
  operator: { id: number; hubCode: string | null };
  /** Another tracking ID that already captured the scanned MAC address, if any. */
  macCapturedBy: string | null;
  /** The registry organization of the MAC address's OUI, or null when it has none. */
  manufacturer: string | null;
  /** Whether the expected brand is on the exclude list (exempt from the manufacturer check). */
  brandExcluded: boolean;
  /** The manufacturers white-labelled for the expected brand. */
  whiteLabels: readonly string[];
  scannedModel: string;
}

export interface CheckOutcome {
  result: CheckResult;
  expected: { brand: string | null; model: string | null };
  found: { manufacturer: string | null; model: string };
}

/** Blind picks name the item only by their blind brand and model. */
export function expectedOf(item: ExpectedItem): { brand: string | null; model: string | null } {
  return item.isBlindpick
    ? { brand: item.blindBrand, model: item.blindModel }
    : { brand: item.deviceBrand, model: item.deviceModel };
}

/** Company names compare by their words: case and punctuation aside ('Apple, Inc.' → 'apple inc'). */
const comparable = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
const compact = (text: string) => comparable(text).replace(/ /g, '');

/** E007: the scanned model is the expected one, case and spacing ignored ('Galaxy S23' = 'galaxys23', not 'Galaxy S23+'). */
export function sameModel(expected: string, scanned: string): boolean {
  const key = (model: string) => model.toLowerCase().replace(/\s+/g, '');
  return key(expected) === key(scanned);
}

/**
 * Whether a registry organization is the brand itself: its name starts with the brand's words,
 * spacing aside ('Samsung Electronics Co.,Ltd' is Samsung, 'OnePlus Technology' is One Plus,
 * 'Vivotek, Inc.' is not Vivo).
 */
export function manufacturerIsBrand(manufacturer: string, brand: string): boolean {
  const target = compact(brand);
  if (!target) return false;
  let prefix = '';
  for (const word of comparable(manufacturer).split(' ')) {
    prefix += word;
    if (prefix === target) return true;
    if (prefix.length >= target.length) return false;
  }
  return false;
}

function acceptsManufacturer(manufacturer: string, brand: string, whiteLabels: readonly string[]): boolean {
  return (
    manufacturerIsBrand(manufacturer, brand) ||
    whiteLabels.some((label) => comparable(label) === comparable(manufacturer))
  );
}

/** The rules in order; the first that fails gives the result. */
export function checkScan(facts: ScanFacts): CheckOutcome {
  const { item, operator, manufacturer } = facts;
  const expected = item ? expectedOf(item) : { brand: null, model: null };
  const outcome = (result: CheckResult): CheckOutcome => ({
    result,
    expected,
    found: { manufacturer, model: facts.scannedModel },
  });

  if (!item) return outcome('E001');
  if (
    item.hubCode === null ||
    operator.hubCode === null ||
    item.hubCode.toLowerCase() !== operator.hubCode.toLowerCase()
  )
    return outcome('E002');
  if (item.isSubmitted && item.submittedById !== operator.id) return outcome('E003');
  if (facts.macCapturedBy !== null) return outcome('E004');
  // An expectation the shipment left empty cannot be contradicted.
  if (expected.brand && !facts.brandExcluded) {
    if (manufacturer === null) return outcome('E005');
    if (!acceptsManufacturer(manufacturer, expected.brand, facts.whiteLabels)) return outcome('E006');
  }
  if (expected.model && !sameModel(expected.model, facts.scannedModel)) return outcome('E007');
  return outcome('passed');
}
