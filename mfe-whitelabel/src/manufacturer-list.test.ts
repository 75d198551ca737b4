import { addManufacturer, removeManufacturer, sameList } from './manufacturer-list';

const list = ['Apple, Inc.', 'SHARP Corporation'];

describe('adding a manufacturer (docs/errors.md#white-labeled-brands)', () => {
  test("nothing selected: 'Please select a manufacturer'", () => {
    expect(addManufacturer(list, null)).toEqual({ error: 'Please select a manufacturer' });
    expect(addManufacturer(list, '')).toEqual({ error: 'Please select a manufacturer' });
  });

  test("no duplicates, compared as the server does (manufacturerKey): 'This manufacturer is already in the list'", () => {
    expect(addManufacturer(list, 'Apple, Inc.')).toEqual({ error: 'This manufacturer is already in the list' });
    expect(addManufacturer(list, 'sharp corporation')).toEqual({ error: 'This manufacturer is already in the list' });
    expect(addManufacturer(list, ' Apple,  Inc.')).toEqual({ error: 'This manufacturer is already in the list' });
  });

  test('appends it with the message to press update', () => {
    expect(addManufacturer(list, 'Sony Group Corporation')).toEqual({
      list: ['Apple, Inc.', 'SHARP Corporation', 'Sony Group Corporation'],
      message: 'Manufacturer added successfully to list press update to save changes',
    });
    expect(list).toHaveLength(2);
  });
});

describe('removing a manufacturer (docs/errors.md#white-labeled-brands)', () => {
  test('removes the one at the index with the message to press update', () => {
    expect(removeManufacturer(list, 0)).toEqual({
      list: ['SHARP Corporation'],
      message: 'Manufacturer removed successfully from list press update to save changes',
    });
  });

  test.each([-1, 2, 0.5, Number.NaN])("an invalid index (%p): 'Invalid item to remove'", (index) => {
    expect(removeManufacturer(list, index)).toEqual({ error: 'Invalid item to remove' });
  });
});

test('lists are the same when they hold the same names in the same order', () => {
  expect(sameList(list, [...list])).toBe(true);
  expect(sameList(list, [...list].reverse())).toBe(false);
  expect(sameList(list, list.slice(1))).toBe(false);
});
