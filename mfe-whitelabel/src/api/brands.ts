// The brands' calls (docs/screens.md#white-labeled-brands): the list, adding a brand, saving a
// brand's manufacturers, and the manufacturer registry the editor searches.
import { getList, http, type Brand, type ManufacturerResult } from '@veritas/shared';
import { queryOptions, useMutation, useQueryClient } from '@veritas/shared/query';
import { MESSAGES } from '../messages';

const BRANDS_PATH = 'api/whitelable/';

/** GET api/whitelable/: every brand with its white-labeled manufacturers. */
export const brandsQuery = queryOptions({
  queryKey: [BRANDS_PATH],
  queryFn: () => getList<Brand>(BRANDS_PATH),
});

/**
 * POST api/whitelable/ {brand, data: []}, then the list again: only the status of a create is
 * relied on, not its body, and the list gives the new brand's id.
 */
export function useAddBrand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => http.post(BRANDS_PATH, { brand: name, data: [] }),
    onSuccess: () => client.invalidateQueries({ queryKey: brandsQuery.queryKey }),
  });
}

/** POST api/whitelable/ {id, brand, data}: the id makes saving an emptied list an update, not the creation of a brand. */
export function useSaveBrand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ brand, list }: { brand: Brand; list: string[] }) =>
      http.post(BRANDS_PATH, { id: brand.id, brand: brand.brand, data: list }),
    onSuccess: (_answer, { brand, list }) =>
      client.setQueryData(brandsQuery.queryKey, (current) =>
        current?.map((b) => (b.id === brand.id ? { ...b, white_labeled_brands: { data: list } } : b)),
      ),
  });
}

const MANUFACTURERS_PATH = 'api/get_manufacturer/';

/** GET api/get_manufacturer/?search=: the registry's manufacturers matching `text`. */
async function findManufacturers(text: string): Promise<ManufacturerResult[]> {
  const { data } = await http.get<ManufacturerResult[]>(MANUFACTURERS_PATH, { params: { search: text } });
  if (!Array.isArray(data)) throw new Error(MESSAGES.manufacturersFetchFailed);
  return data;
}

/** The search of the registry for `text`, a query of its own per text. */
export const manufacturersQuery = (text: string) => ({
  queryKey: [MANUFACTURERS_PATH, text],
  queryFn: () => findManufacturers(text),
});
