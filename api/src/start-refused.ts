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
