// The IEEE OUI registry (MA-L, MA-M and MA-S assignments) as shipped by the oui-data package:
// an object from a hex prefix (6, 7 or 9 digits) to "Organization\naddress lines…".
import fs from 'node:fs';
import { manufacturerKey, normalizeManufacturerName } from '@veritas/shared/domain';

export interface OuiRegistry {
  /** Distinct organization names, one spelling each. */
  manufacturers: string[];
  /** [upper-case hex prefix, its organization as spelled in `manufacturers`]. */
  prefixes: [prefix: string, manufacturer: string][];
}

/**
 * One name per organization: the registry spells some in several ways ('SHARP Corporation' 16
 * times, 'SHARP CORPORATION' 3 times); the most frequent spelling wins, the first seen on a tie.
 * Assignments to 'Private' (hidden registrants) name no manufacturer and are left out.
 */
export function parseRegistry(entries: Record<string, string>): OuiRegistry {
  const spellingsByKey = new Map<string, Map<string, number>>();
  const assigned: [string, string][] = [];
  for (const [prefix, record] of Object.entries(entries)) {
    const lineEnd = record.indexOf('\n');
    const name = normalizeManufacturerName(lineEnd < 0 ? record : record.slice(0, lineEnd));
    const key = manufacturerKey(name);
    if (!key || key === 'private') continue;
    const spellings = spellingsByKey.get(key) ?? new Map<string, number>();
    spellings.set(name, (spellings.get(name) ?? 0) + 1);
    spellingsByKey.set(key, spellings);
    assigned.push([prefix.toUpperCase(), key]);
  }

  const nameOfKey = new Map<string, string>();
  for (const [key, spellings] of spellingsByKey) {
    let best = '';
    let bestCount = 0;
    for (const [spelling, count] of spellings) {
      if (count > bestCount) [best, bestCount] = [spelling, count];
    }
    nameOfKey.set(key, best);
  }
  return {
    manufacturers: [...nameOfKey.values()],
    prefixes: assigned.map(([prefix, key]) => [prefix, nameOfKey.get(key)!]),
  };
}

/**
 * Reads the registry from the oui-data package. Read and parsed here rather than require()d,
 * so the 5 MB object is not kept in the module cache once the migration has loaded it.
 */
export function readOuiRegistry(): OuiRegistry {
  return parseRegistry(JSON.parse(fs.readFileSync(require.resolve('oui-data'), 'utf8')) as Record<string, string>);
}
