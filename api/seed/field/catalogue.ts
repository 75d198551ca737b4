// The devices that field staff meet in demo data, simulations and benchmark data: what shipments
// expect (brand, model, type) and the registry organization that makes each brand's devices.
import type { DeviceType } from '@veritas/shared/domain';

export interface CatalogueDevice {
  /** Empty: a shipment row without a device type. */
  type: DeviceType | '';
  brand: string;
  model: string;
  /** The IEEE registry organization of the brand's network chips (as the registry spells it). */
  manufacturer: string;
}

const device = (type: DeviceType | '', brand: string, model: string, manufacturer: string): CatalogueDevice => ({
  type,
  brand,
  model,
  manufacturer,
});

export const CATALOGUE: readonly CatalogueDevice[] = [
  device('smarttv', 'Samsung', 'Crystal 4K UHD UA43CU8000', 'Samsung Electronics Co.,Ltd'),
  device('smarttv', 'LG', 'OLED55C3PSA', 'LG Electronics'),
  device('smarttv', 'Sony', 'Bravia KD-55X80L', 'Sony Corporation'),
  device('smarttv', 'Xiaomi', 'Mi TV 5X 50', 'Xiaomi Communications Co Ltd'),
  device('laptop', 'Dell', 'Inspiron 15 3520', 'Dell Inc.'),
  device('laptop', 'HP', 'Pavilion 14-dv2014TU', 'Hewlett Packard'),
  device('laptop', 'Lenovo', 'IdeaPad Slim 3 15IAH8', 'Lenovo Mobile Communication Technology Ltd.'),
  device('laptop', 'Apple', 'MacBook Air M2', 'Apple, Inc.'),
  device('laptop', 'Asus', 'Vivobook 15 X1502ZA', 'ASUSTek COMPUTER INC.'),
  device('tablet', 'Apple', 'iPad (10th generation)', 'Apple, Inc.'),
  device('tablet', 'Samsung', 'Galaxy Tab S9 FE', 'Samsung Electronics Co.,Ltd'),
  device('tablet', 'Lenovo', 'Tab M10 (3rd Gen)', 'Motorola Mobility LLC, a Lenovo Company'),
  device('tablet', 'Xiaomi', 'Pad 6', 'Xiaomi Communications Co Ltd'),
  device('mobile', 'Samsung', 'Galaxy S23', 'Samsung Electronics Co.,Ltd'),
  device('mobile', 'Apple', 'iPhone 14', 'Apple, Inc.'),
  device('mobile', 'OnePlus', '11R 5G', 'OnePlus Technology (Shenzhen) Co., Ltd'),
  device('mobile', 'Xiaomi', 'Redmi Note 13 Pro', 'Xiaomi Communications Co Ltd'),
  device('mobile', 'Vivo', 'V29 5G', 'vivo Mobile Communication Co., Ltd.'),
  device('truewireless', 'boAt', 'Airdopes 141', 'Imagine Marketing Private Limited'),
  device('truewireless', 'Apple', 'AirPods Pro (2nd generation)', 'Apple, Inc.'),
  device('truewireless', 'Sony', 'WF-1000XM4', 'Sony Corporation'),
  device('truewireless', 'OnePlus', 'Buds 3', 'OnePlus Technology (Shenzhen) Co., Ltd'),
  device('truewireless', 'JBL', 'Tune 230NC TWS', 'JBL GmbH & Co. KG'),
  device('', 'Noise', 'ColorFit Pro 4', 'Nexxbase Marketing'),
  device('', 'Xiaomi', 'Power Bank 3i 20000mAh', 'Xiaomi Communications Co Ltd'),
];

/**
 * Manufacturers that make devices for a brand under another name, as an administrator would list
 * them on the White Labeled Brands page: without them those devices would fail E006.
 */
export const WHITE_LABELS: Readonly<Record<string, readonly string[]>> = {
  HP: ['Hewlett Packard'],
  Asus: ['ASUSTek COMPUTER INC.'],
  Lenovo: ['Motorola Mobility LLC, a Lenovo Company'],
  OnePlus: ['OPPO Digital, Inc.'],
};
