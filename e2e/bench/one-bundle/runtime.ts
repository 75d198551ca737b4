// The federation runtime as the one-bundle build of bench/first-rows.ts sees it: the pick list is
// compiled into the shell's build, so loading it is a dynamic import of its module, not a remote.
export async function loadRemote(id: string): Promise<unknown> {
  if (id === 'devices/ListDevices') return import('../../../mfe-devices/src/list-devices');
  throw new Error(`${id} is not part of the one-bundle build`);
}

export function registerRemotes(): void {}

export async function preloadRemote(): Promise<void> {}
