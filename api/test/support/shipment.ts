// Records stored by the upload's own code (src/upload/store-records.ts) without the HTTP, chunks
// and CSV around it: a mobile of HUB1 for each tracking ID, rows numbered from 1.
import type { Db } from '../../src/db/schema';
import { recordStore } from '../../src/upload/store-records';

export function storeShipment(db: Db, uploadId: string, trackingIds: readonly string[]): Promise<boolean[]> {
  return recordStore(db, { uploadId, resumed: false })(
    trackingIds.map((tracking_id) => ({
      tracking_id,
      hub_code: 'HUB1',
      created_date: '2025-06-10T00:00:00.000Z',
      device_type: 'mobile',
      is_blindpick: 0,
      device_brand: 'Samsung',
      device_model_name: 'Galaxy S23',
      blind_brand: null,
      blind_model: null,
    })),
    trackingIds.map((_, i) => i + 1),
  );
}
