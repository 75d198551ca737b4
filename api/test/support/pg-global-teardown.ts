export default async function teardown(): Promise<void> {
  globalThis.__VERITAS_PG_CLUSTER__?.stop();
  globalThis.__VERITAS_PG_CLUSTER__ = undefined;
}
