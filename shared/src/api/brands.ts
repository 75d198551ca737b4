// White-labelled brands, the manufacturer registry's search and the exclude list
// (docs/screens.md#white-labeled-brands, docs/field-scans.md).
import { Type, type Static } from '@sinclair/typebox';
import { Id, Text } from './fields';

/** The longest brand name: the server's limit, and the Add Brand input's. */
export const MAX_BRAND_LENGTH = 128;

/**
 * How brand names are compared, by the server (its unique `brand_key`) and the Add Brand form:
 * without the spaces around them, ignoring case.
 */
export const brandKey = (name: string) => name.trim().toLowerCase();

/** The refusals of a new brand's name: the server's, and the Add Brand form's before it sends. */
export const BRAND_MESSAGES = {
  missing: 'Please enter a brand name',
  exists: 'This brand already exists',
} as const;

/** A manufacturer's name as the registry spells it: without the spaces around it, single-spaced. */
export const normalizeManufacturerName = (name: string) => name.trim().replace(/\s+/g, ' ');

/**
 * How manufacturer names are compared and searched, by the server and a brand's editor: case- and
 * space-insensitively.
 */
export const manufacturerKey = (name: string) => normalizeManufacturerName(name).toLowerCase();

/** A brand with the registry names of the manufacturers that sell under its name. */
export const Brand = Type.Object({
  id: Type.Integer(),
  brand: Type.String(),
  white_labeled_brands: Type.Object({ data: Type.Array(Type.String()) }),
});
export type Brand = Static<typeof Brand>;

export const BrandList = Type.Array(Brand);

export const SaveBrand = Type.Object({
  brand: Text(
    { missing: BRAND_MESSAGES.missing, maxLength: `Brand name must be at most ${MAX_BRAND_LENGTH} characters.` },
    { maxLength: MAX_BRAND_LENGTH },
  ),
  // Registry names. Absent or null: none. Too many is refused after duplicates are dropped, so
  // the server counts them.
  data: Type.Optional(
    Type.Union([Type.Array(Text({ missing: 'Manufacturer names must be non-empty text.' })), Type.Null()], {
      errorMessages: { missing: 'data must be a list of manufacturer names.' },
      description: 'Registry names of its manufacturers (at most 500 once duplicates are dropped).',
    }),
  ),
  // The console sends the brand's id when it saves a list, so saving an emptied list is not a create.
  id: Type.Optional(
    Type.Union([Id('id must be the id of a brand (a positive integer).'), Type.Null()], {
      errorMessages: { missing: 'id must be the id of a brand (a positive integer).' },
      description: "The brand's id when saving its list; without it and without data a brand is created.",
    }),
  ),
});

// A repeated ?search= arrives as a list, which the server refuses (400 'search must be text.').
export const ManufacturerQuery = Type.Object({
  search: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
});

export const ManufacturerResult = Type.Object({ id: Type.Integer(), manufacturer: Type.String() });
export type ManufacturerResult = Static<typeof ManufacturerResult>;

export const ManufacturerList = Type.Array(ManufacturerResult);

/** A brand of the exclude list. */
export const ExcludedBrand = Type.Object({
  brand: Text(
    { missing: 'brand is required.', maxLength: `brand must be at most ${MAX_BRAND_LENGTH} characters.` },
    { maxLength: MAX_BRAND_LENGTH },
  ),
});

export const ExcludeList = Type.Array(ExcludedBrand);
