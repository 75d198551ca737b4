import { RunningServer, stopServer } from './server';

export default async function globalTeardown(): Promise<void> {
  const server = (globalThis as Record<string, unknown>).__veritasServer as RunningServer | undefined;
  if (server) await stopServer(server);
}
