/**
 * A start refused for a reason its message tells an operator in full: a setting out of range, a
 * remote's declaration that is not one, a database not reachable in time. The entry points print
 * its message alone; any other failure of a start (a bug, a migration that fails) with its stack.
 */
export class StartRefused extends Error {}

/** What an entry point prints when its start fails. */
export function reportStartFailure(error: unknown): void {
  console.error(error instanceof StartRefused ? error.message : error);
}

/**
 * The whole number the environment variable `name` holds, at least `least`; undefined when unset or
 * empty. Anything else refuses the start, e.g. 'VERITAS_REGISTRY_KEEP must be a whole number, 1 or
 * more' (`unit`: ' of seconds').
 */
export function wholeNumberFrom(env: NodeJS.ProcessEnv, name: string, least: number, unit = ''): number | undefined {
  const text = env[name];
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least)
    throw new StartRefused(`${name} must be a whole number${unit}, ${least} or more`);
  return value;
}
