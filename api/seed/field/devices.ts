// Devices as field staff scan them: MAC addresses from the IEEE registry's assignments, hardware
// IDs, and the ways a scan goes wrong (a MAC already captured, an unknown or foreign manufacturer,
// another model). Shared by the demo data and the simulator, so both meet the rules alike.
import type { CatalogueDevice } from './catalogue';
import type { RandomSource } from '@veritas/shared/testing/records';

/** What a scan is meant to show; the engine's rules decide the actual result. */
export type ScanIntent = 'genuine' | 'duplicate-mac' | 'unknown-manufacturer' | 'foreign-manufacturer' | 'other-model';

export interface ScannedDevice {
  mac_address: string;
  model: string;
  hardware_id: string;
}

const hex = (rand: RandomSource, digits: number) => {
  let text = '';
  for (let i = 0; i < digits; i++) text += '0123456789ABCDEF'[Math.floor(rand.next() * 16)];
  return text;
};
const colons = (mac: string) => mac.match(/../g)!.join(':');

export class DeviceMaker {
  private readonly prefixesOf = new Map<string, string[]>();
  private readonly assigned = new Set<string>();
  /** MACs handed out so far: a duplicate is taken from them. */
  private readonly issued: string[] = [];

  /** `prefixes`: the registry's [hex prefix, organization] assignments. */
  constructor(
    prefixes: Iterable<readonly [prefix: string, manufacturer: string]>,
    private readonly rand: RandomSource,
  ) {
    for (const [prefix, manufacturer] of prefixes) {
      const list = this.prefixesOf.get(manufacturer) ?? [];
      list.push(prefix);
      this.prefixesOf.set(manufacturer, list);
      this.assigned.add(prefix.slice(0, 6));
    }
  }

  /** The device as scanned at the doorstep for an item expecting `expected`. */
  scan(expected: CatalogueDevice, intent: ScanIntent): ScannedDevice {
    const model = intent === 'other-model' ? `${expected.model} Lite` : expected.model;
    return { mac_address: this.mac(expected, intent), model, hardware_id: this.hardwareId() };
  }

  /** A hardware ID that is not the one captured (a different unit, scanned by mistake). */
  hardwareId(): string {
    return `HW-${hex(this.rand, 16)}`;
  }

  private mac(expected: CatalogueDevice, intent: ScanIntent): string {
    if (intent === 'duplicate-mac' && this.issued.length > 0) return this.rand.pick(this.issued);
    const mac =
      intent === 'unknown-manufacturer'
        ? this.unregisteredMac()
        : intent === 'foreign-manufacturer'
          ? this.macOf(this.foreignManufacturer(expected.manufacturer))
          : this.macOf(expected.manufacturer);
    this.issued.push(mac);
    return mac;
  }

  /** A MAC of the organization's assignments; a locally administered one when it has none. */
  private macOf(manufacturer: string): string {
    const prefixes = this.prefixesOf.get(manufacturer);
    if (!prefixes) return this.unregisteredMac();
    const prefix = this.rand.pick(prefixes);
    return colons(prefix + hex(this.rand, 12 - prefix.length));
  }

  /** Locally administered (second-lowest bit of the first octet set): no registry organization. */
  private unregisteredMac(): string {
    for (;;) {
      const mac = this.rand.pick(['02', '06', '0A', '0E']) + hex(this.rand, 10);
      if (!this.assigned.has(mac.slice(0, 6))) return colons(mac);
    }
  }

  private foreignManufacturer(own: string): string {
    const others = [
      'HUAWEI TECHNOLOGIES CO.,LTD',
      'Realme Chongqing Mobile Telecommunications Corp.,Ltd.',
      'Google, Inc.',
      'Nothing Technology Limited',
    ];
    return this.rand.pick(others.filter((name) => name !== own && this.prefixesOf.has(name)));
  }
}
