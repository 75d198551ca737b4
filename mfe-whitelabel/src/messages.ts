// The texts of the White Labeled Brands screen (docs/errors.md#white-labeled-brands), and the error chain it uses.
import { serverMessage } from '@veritas/shared';

// A new brand's refusals are BRAND_MESSAGES of @veritas/shared/domain: the server's too.
export const MESSAGES = {
  brandAdded: 'Brand added successfully!',
  brandAddFailed: 'Failed to add brand',
  brandUpdated: 'Brand updated successfully!',
  brandUpdateFailed: 'Error updating brand',
  brandsFetchFailed: 'Failed to fetch white labels',
  manufacturersFetchFailed: 'Failed to load manufacturers',
  selectManufacturer: 'Please select a manufacturer',
  manufacturerInList: 'This manufacturer is already in the list',
  manufacturerAdded: 'Manufacturer added successfully to list press update to save changes',
  manufacturerRemoved: 'Manufacturer removed successfully from list press update to save changes',
  invalidRemoval: 'Invalid item to remove',
} as const;

/** The chain of docs/errors.md#white-labeled-brands: the server's `message`, else the error's own message, else `fallback`. */
export function errorText(error: unknown, fallback: string): string {
  return serverMessage(error, ['message']) ?? (error instanceof Error && error.message ? error.message : fallback);
}
