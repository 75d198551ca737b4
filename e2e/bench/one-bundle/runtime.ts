// The federation runtime as the one-bundle build of bench/first-rows.ts sees it: what the pick
// list's page load shows is compiled into the shell's build, so loading it is a dynamic import of
// its module, not a remote: the page, and the top bar's "My cases" (the cases remote's top-bar.item,
// on every page), which the federated console loads too.
const MODULES: Record<string, () => Promise<unknown>> = {
  'devices/ListDevices': () => import('../../../mfe-devices/src/list-devices'),
  'cases/MyCasesBadge': () => import('../../../mfe-cases/src/extensions/my-cases-badge'),
};

export async function loadRemote(id: string): Promise<unknown> {
  const load = MODULES[id];
  if (!load) throw new Error(`${id} is not part of the one-bundle build`);
  return load();
}

export function registerRemotes(): void {}

export async function preloadRemote(): Promise<void> {}
