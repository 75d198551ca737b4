// Local edits of a brand's manufacturer list (docs/screens.md#white-labeled-brands): each either gives the new list and
// its message, or refuses with the reason and leaves the list as it was.
import { manufacturerKey } from '@veritas/shared/domain';
import { MESSAGES } from './messages';

export type ListEdit = { list: string[]; message: string } | { error: string };

/** Appends `name`; names are compared as the server compares them (manufacturerKey). */
export function addManufacturer(list: readonly string[], name: string | null): ListEdit {
  if (!name) return { error: MESSAGES.selectManufacturer };
  const key = manufacturerKey(name);
  if (list.some((item) => manufacturerKey(item) === key)) return { error: MESSAGES.manufacturerInList };
  return { list: [...list, name], message: MESSAGES.manufacturerAdded };
}

export function removeManufacturer(list: readonly string[], index: number): ListEdit {
  if (!Number.isInteger(index) || index < 0 || index >= list.length) return { error: MESSAGES.invalidRemoval };
  return { list: list.filter((_, i) => i !== index), message: MESSAGES.manufacturerRemoved };
}

/** Same manufacturers in the same order: a list equal to the saved one has no unsaved changes. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
