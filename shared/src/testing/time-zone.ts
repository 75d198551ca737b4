// Running code in a given local time zone, for tests comparing the browser's local-time rules with
// computations for a named zone. Node reads the TZ variable again whenever process.env.TZ is
// assigned; jest hands each test file a copy of process.env, so the process's own is reached
// through the main context (vm.runInThisContext). No DOM: the API's tests use it too.
import vm from 'node:vm';

const processEnv = (): NodeJS.ProcessEnv => vm.runInThisContext('process.env') as NodeJS.ProcessEnv;

/**
 * Sets the runtime's local time zone to `zone` until the function it answers is called, which
 * restores the previous one: for work that awaits (a component test), in beforeEach and afterEach.
 */
export function setLocalZone(zone: string): () => void {
  const env = processEnv();
  const previous = env.TZ;
  env.TZ = zone;
  return () => {
    if (previous === undefined) delete env.TZ;
    else env.TZ = previous;
  };
}

/** Runs `work` (synchronous) with the runtime's local time zone set to `zone`, then restores the previous one. */
export function inLocalZone<T>(zone: string, work: () => T): T {
  const restore = setLocalZone(zone);
  try {
    return work();
  } finally {
    restore();
  }
}

/** Every time zone Intl names, and the current names ICU still lists under older ones. */
export const TEST_ZONES: readonly string[] = [
  ...new Set([
    ...Intl.supportedValuesOf('timeZone'),
    'UTC',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Australia/Lord_Howe',
    'Europe/London',
    'Pacific/Chatham',
    'Pacific/Apia',
  ]),
];
