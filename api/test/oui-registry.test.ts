// Reading the IEEE OUI registry (oui-data) into distinct manufacturers and their prefixes.
import { parseRegistry } from '../src/db/oui-registry';

const registry = {
  '00000A': 'SHARP Corporation\n1 Address\nJapan',
  '00000B': 'SHARP  CORPORATION \nOther address',
  '00000C': 'SHARP Corporation\nThird address',
  '00000D': 'Private',
  '00000E': '   \nno name',
  '70B3D5123': 'Tie Maker GmbH\nBerlin',
  '70b3d5124': 'TIE MAKER GMBH\nBerlin',
  '8C1F64': 'One Line Only',
};

test('one manufacturer per name compared case- and space-insensitively, in its most frequent spelling (the first on a tie)', () => {
  expect(parseRegistry(registry).manufacturers).toEqual(['SHARP Corporation', 'Tie Maker GmbH', 'One Line Only']);
});

test("'Private' and nameless assignments are left out; every other prefix maps to its manufacturer's name, upper-case", () => {
  expect(parseRegistry(registry).prefixes).toEqual([
    ['00000A', 'SHARP Corporation'],
    ['00000B', 'SHARP Corporation'],
    ['00000C', 'SHARP Corporation'],
    ['70B3D5123', 'Tie Maker GmbH'],
    ['70B3D5124', 'Tie Maker GmbH'],
    ['8C1F64', 'One Line Only'],
  ]);
});
