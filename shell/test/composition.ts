// The composition the server makes for a viewer of the console of docs/screens.md (routes, menus,
// who sees what), as the shell's tests get it from /remotes.json: every remote served from its own
// port, only what the viewer's role may open, menus in display order.
import { isAdmin, type ComposedMenuEntry, type ComposedPage, type Composition, type Role } from '@veritas/shared';

/** Where each remote is: a console on :8080 with each remote on a port of its own. */
export const COMPOSITION_REMOTES = {
  dashboard: { entry: 'http://127.0.0.1:8081/mf-manifest.json' },
  devices: { entry: 'http://127.0.0.1:8082/mf-manifest.json' },
  users: { entry: 'http://127.0.0.1:8083/mf-manifest.json' },
  data: { entry: 'http://127.0.0.1:8084/mf-manifest.json' },
  whitelabel: { entry: 'http://127.0.0.1:8085/mf-manifest.json' },
  audit: { entry: 'http://127.0.0.1:8086/mf-manifest.json' },
};

type ForAdmins = { admins?: true };

const PAGES: (ComposedPage & ForAdmins)[] = [
  { path: 'Dashboard', remote: 'dashboard', module: './Dashboard', title: 'Dashboard' },
  {
    path: 'ListDevices',
    remote: 'devices',
    module: './ListDevices',
    title: 'Stats',
    firstCalls: [
      {
        path: 'api/devices/',
        forward: ['q', 'hub', 'status', 'result'],
        params: { limit: '100' },
        feature: 'device-pages',
      },
      { path: 'api/devices/count/', forward: ['q', 'hub', 'status', 'result'], feature: 'device-pages' },
    ],
  },
  { path: 'createuser', remote: 'users', module: './CreateUser', title: 'Create User' },
  { path: 'Deactivateuser', remote: 'users', module: './DeactivateUsers', title: 'Deactivate User' },
  { path: 'Upload', remote: 'data', module: './Upload', title: 'Upload', admins: true },
  { path: 'Download', remote: 'data', module: './Download', title: 'Download' },
  { path: 'WhiteLabel', remote: 'whitelabel', module: './WhiteLabel', title: 'White Label', admins: true },
  { path: 'AuditLog', remote: 'audit', module: './AuditLog', title: 'Audit Log', admins: true },
];

const MENUS: (ComposedMenuEntry & ForAdmins)[] = [
  { menu: 'Data', label: 'Upload', remote: 'data', page: 'Upload', admins: true },
  { menu: 'Data', label: 'Download APK', remote: 'data', command: './downloadApk', admins: true },
  { menu: 'Data', label: 'White Label', remote: 'whitelabel', page: 'WhiteLabel', admins: true },
  { menu: 'Data', label: 'Download', remote: 'data', page: 'Download' },
  { menu: 'Data', label: 'Stats', remote: 'devices', page: 'ListDevices' },
  { menu: 'User Management', label: 'Create User', remote: 'users', page: 'createuser' },
  { menu: 'User Management', label: 'Deactivate User', remote: 'users', page: 'Deactivateuser' },
  { menu: 'User Management', label: 'Audit Log', remote: 'audit', page: 'AuditLog', admins: true },
];

/** What `role` may see, without the fixture's marks. */
function forRole<T extends ForAdmins>(items: T[], role: Role | null): Omit<T, 'admins'>[] {
  return items.filter((item) => !item.admins || isAdmin(role)).map(({ admins: _admins, ...item }) => item);
}

/** The composition for `user` of `role` (nobody: null), with `changes` on top. */
export function compositionFor(
  role: Role | null,
  user: string | null,
  changes: Partial<Composition> = {},
): Composition {
  return {
    viewer: user,
    remotes: COMPOSITION_REMOTES,
    pages: forRole(PAGES, role),
    menus: forRole(MENUS, role),
    extensions: [],
    unavailable: [],
    home: 'Dashboard',
    features: [],
    ...changes,
  };
}
