// Driving the upload page as a user does.
import { Page } from 'playwright-core';

/** The header row of a shipment CSV. */
export const SHIPMENT_HEADER =
  'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date';

/** Drops a file on the upload zone as a user dragging it from the desktop would. */
export async function dropFile(page: Page, name: string, text: string, type = 'text/csv'): Promise<void> {
  const dataTransfer = await page.evaluateHandle(
    ({ name, text, type }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], name, { type }));
      return transfer;
    },
    { name, text, type },
  );
  const zone = page.getByRole('button', { name: /Drag and drop a CSV file here, or click to select a file/ });
  await zone.dispatchEvent('dragenter', { dataTransfer });
  await zone.dispatchEvent('drop', { dataTransfer });
}
