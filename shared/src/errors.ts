import type { ErrorCatalogueEntry } from './types';

/** The results a device check can fail with (SPEC §8), as field staff and the console name them. */
export const DEVICE_ERRORS: readonly ErrorCatalogueEntry[] = [
  {
    code: 'E001',
    reason: 'TID not present in DB',
    title: 'Oops...Wrong TID.',
    description: 'This tracking ID is not in the system. Check the ID and scan again.',
  },
  {
    code: 'E002',
    reason: 'TID not mapped to WM/hub',
    title: 'Oops...Wrong TID.',
    description: 'This tracking ID is not assigned to this Wishmaster or hub. Check the ID and scan again.',
  },
  {
    code: 'E003',
    reason: 'TID already verified by another WM',
    title: 'TID already verified.',
    description: 'Another Wishmaster has already verified this tracking ID.',
  },
  {
    code: 'E004',
    reason: 'Duplicate MAC address scanned',
    title: 'Device duplication detected.',
    description: 'This MAC address was already scanned for another device. Retry if this was a mistake, else submit to start the detach process.',
  },
  {
    code: 'E005',
    reason: 'Manufacturer not found and brand not on the exclude list',
    title: 'Fraudulent device detected.',
    description: 'The manufacturer of the scanned device is unknown. Retry, or submit to start the detach process.',
  },
  {
    code: 'E006',
    reason: 'Brand or manufacturer mismatched with the order',
    title: 'Brand Mismatch..',
    description: 'The brand found differs from the expected brand. Retry, or submit to start the detach process.',
  },
  {
    code: 'E007',
    reason: 'Model mismatch',
    title: 'Incorrect device detected.',
    description: 'The model found differs from the expected model. Retry, or submit to start the detach process.',
  },
  {
    code: 'E008',
    reason: 'Hardware ID mismatch at hub/RC',
    title: 'Device Mismatch detected.',
    description: 'The scanned device differs from the one captured at the doorstep. Retry, or report to the support team.',
  },
  // The meaning of E009 and E010 is not documented; they are still counted and charted.
  {
    code: 'E009',
    reason: 'Not documented',
    title: 'Verification failed (E009).',
    description: 'The device check failed with code E009.',
  },
  {
    code: 'E010',
    reason: 'Not documented',
    title: 'Verification failed (E010).',
    description: 'The device check failed with code E010.',
  },
];

/** The catalogue entry of an error code such as 'E004', or undefined for anything else. */
export function deviceError(code: string | null | undefined): ErrorCatalogueEntry | undefined {
  return DEVICE_ERRORS.find((entry) => entry.code === code);
}
