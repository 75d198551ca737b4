// app/*: the mobile app of field staff (docs/field-scans.md): the doorstep check and submission,
// and the verifications at hub and return centre.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Text } from './fields';

const MAX_TRACKING_ID_LENGTH = 64;
const MAX_TEXT_LENGTH = 128;

const scanText = (field: string, maxLength: number, options: { minLength?: number } = {}) =>
  Text(
    { missing: `${field} is required.`, maxLength: `${field} must be at most ${maxLength} characters.` },
    { maxLength, ...options },
  );

export const HardwareScan = Type.Object({
  tracking_id: scanText('tracking_id', MAX_TRACKING_ID_LENGTH),
  hardware_id: scanText('hardware_id', MAX_TEXT_LENGTH),
});
export type HardwareScan = Static<typeof HardwareScan>;

export const DeviceScan = Type.Object({
  ...HardwareScan.properties,
  // The MAC's form is checked by the engine; a model may be unreadable on the device.
  mac_address: scanText('mac_address', MAX_TEXT_LENGTH),
  model: scanText('model', MAX_TEXT_LENGTH, { minLength: 0 }),
});
export type DeviceScan = Static<typeof DeviceScan>;

export const ScanAnswer = Type.Object({
  result: Type.String({ description: "'passed' or a device error code." }),
  title: Type.String(),
  description: Type.String(),
  expected: Type.Object({ brand: Nullable(Type.String()), model: Nullable(Type.String()) }),
  found: Type.Object({ manufacturer: Nullable(Type.String()), model: Type.String() }),
});
export type ScanAnswer = Static<typeof ScanAnswer>;

export const VerifyAnswer = Type.Object({
  result: Type.Literal('passed'),
  title: Type.String(),
  description: Type.String(),
  tracking_id: Type.String(),
});
export type VerifyAnswer = Static<typeof VerifyAnswer>;
