// What the shell offers the remotes' declarations (docs/architecture.md#composition): its own
// routes, its top-bar menus, and the slots any page may render, each with a typed, versioned props
// contract. A remote's contribution names a slot and the contract version it was written against;
// the registry refuses it unless a live remote (or the shell) renders that slot at that version.
import type { DeviceRecord } from './api/devices';
import type { Timeframe } from './dashboard-stats';
import type { Role } from './types';

/** The routes the shell renders itself: no remote may declare them (compared without regard to case). */
export const SHELL_ROUTES = ['login', 'Deployments'] as const;

/**
 * The server's own paths beside the console's pages, the API (/veritas/…) and the registry's files
 * (/remotes/…): no remote may declare them as pages either (compared without regard to case).
 */
export const SERVER_PATHS = ['veritas', 'remotes'] as const;

/** The top-bar menus, in display order: a remote's menu entry names one of them. */
export const SHELL_MENUS = ['Data', 'User Management'] as const;
export type MenuName = (typeof SHELL_MENUS)[number];

/** Props of a top-bar item (slot `top-bar.item`, rendered by the shell before the user's name). */
export interface TopBarItemProps {
  user: string | null;
  role: Role | null;
}

/** Props of a Dashboard tile (slot `dashboard.tile`, rendered by the dashboard remote under its tiles). */
export interface DashboardTileProps {
  /** The selected hub's code, or 'all'. */
  hub: string;
  timeframe: Timeframe;
}

/** Props of a Device Details section (slot `device-details.section`, in the devices remote's Device Details). */
export interface DeviceDetailsSectionProps {
  record: DeviceRecord;
}

/** Each slot's props, by name: the contract a contribution's default export is rendered with. */
export interface SlotProps {
  'top-bar.item': TopBarItemProps;
  'dashboard.tile': DashboardTileProps;
  'device-details.section': DeviceDetailsSectionProps;
}
export type SlotName = keyof SlotProps;

/**
 * The version of each slot's props contract: raised when its props change in a way a contribution
 * written against the old ones would not work with (shared/contract.json records the types).
 */
export const SLOT_CONTRACTS: { readonly [S in SlotName]: number } = {
  'top-bar.item': 1,
  'dashboard.tile': 1,
  'device-details.section': 1,
};

/** The slots the shell itself renders, with their contract versions. */
export const SHELL_SLOTS: Partial<Record<SlotName, number>> = { 'top-bar.item': SLOT_CONTRACTS['top-bar.item'] };
