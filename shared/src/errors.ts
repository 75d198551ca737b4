import type { ErrorCatalogueEntry } from './types';
// The catalogue is data, so the API (which answers the mobile app with these titles and
// descriptions) reads the same file. E009 and E010 are not documented: they are still counted
// and charted, with generic texts.
import catalogue from './device-errors.json';

/** The results a device check can fail with (docs/field-scans.md#device-error-codes), as field staff and the console name them. */
export const DEVICE_ERRORS: readonly ErrorCatalogueEntry[] = catalogue;

/** The catalogue entry of an error code such as 'E004', or undefined for anything else. */
export function deviceError(code: string | null | undefined): ErrorCatalogueEntry | undefined {
  return DEVICE_ERRORS.find((entry) => entry.code === code);
}
