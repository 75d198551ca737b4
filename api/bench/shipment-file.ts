// The shipment file the upload benchmarks send (bench/upload.ts, bench/webhooks.ts): a realistic
// CSV over HUBS, as a warehouse system would export it.

/** The hubs the file's rows spread over. */
export const HUBS = Array.from({ length: 20 }, (_, i) => `HUB${String(i + 1).padStart(2, '0')}`);

const DEVICES: [type: string, brand: string, models: string[]][] = [
  ['mobile', 'Samsung', ['Galaxy S23', 'Galaxy A54', 'Galaxy M14 5G']],
  ['mobile', 'Apple', ['iPhone 14', 'iPhone 15 Pro']],
  ['laptop', 'Dell', ['XPS 13 9315', 'Inspiron 15 3520']],
  ['laptop', 'Lenovo', ['ThinkPad E14 Gen 5', 'IdeaPad Slim 3']],
  ['tablet', 'Apple', ['iPad Air, 5th generation']],
  ['smarttv', 'LG', ['OLED55C3PSA', '43UR7500PSC']],
  ['truewireless', 'boAt', ['Airdopes 141', 'Airdopes 161']],
];

/**
 * The shipment file, the way a warehouse system would export it (quoted names with commas
 * included); its tracking IDs start with `prefix`.
 */
export function shipmentCsv(rows: number, prefix = 'SHP'): Buffer {
  const lines = [
    'tracking_id,hub_code,device_type,device_brand,device_model_name,is_blindpick,blind_brand,blind_model,created_date',
  ];
  const start = Date.UTC(2025, 0, 1);
  for (let i = 0; i < rows; i++) {
    const [type, brand, models] = DEVICES[i % DEVICES.length]!;
    const model = models[i % models.length]!;
    const blind = i % 10 === 0;
    const created = new Date(start + (i % 86_400) * 60_000).toISOString();
    lines.push(
      [
        `${prefix}${String(i).padStart(9, '0')}`,
        HUBS[i % HUBS.length],
        type,
        brand,
        model.includes(',') ? `"${model}"` : model,
        blind ? 'true' : 'false',
        blind ? 'Generic' : '',
        blind ? '"Box, sealed"' : '',
        i % 4 === 0 ? created.slice(0, 10) : created,
      ].join(','),
    );
  }
  return Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8');
}
