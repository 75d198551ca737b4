import { startServer } from './server';

export default async function globalSetup(): Promise<void> {
  const server = await startServer();
  process.env.E2E_URL = server.url;
  (globalThis as Record<string, unknown>).__veritasServer = server;
}
