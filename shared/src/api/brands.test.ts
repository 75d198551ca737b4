import { brandKey, manufacturerKey, normalizeManufacturerName } from './brands';

test('brandKey: brand names compare without the spaces around them, ignoring case', () => {
  expect(brandKey('  Acme Phones ')).toBe('acme phones');
  expect(brandKey('ACME')).toBe(brandKey('acme'));
  // Spaces inside a name are part of it.
  expect(brandKey('Acme  Phones')).not.toBe(brandKey('Acme Phones'));
});

test("normalizeManufacturerName: the registry's spelling, trimmed and single-spaced", () => {
  expect(normalizeManufacturerName('  Apple,   Inc. ')).toBe('Apple, Inc.');
});

test('manufacturerKey: the search key is lower-cased with spaces trimmed and collapsed', () => {
  expect(manufacturerKey('  Apple,   Inc. ')).toBe('apple, inc.');
});
