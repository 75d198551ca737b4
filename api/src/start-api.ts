// Runs the API alone on PORT (default 8080), 127.0.0.1, without demo data (the console's composition,
// scripts/serve.mjs, loads it under VERITAS_DEMO).
import { createServer, reportStartFailure } from './server';

async function main() {
  const { app } = await createServer();
  const port = Number(process.env.PORT ?? 8080);
  await app.listen({ port, host: '127.0.0.1' });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void app.close().then(() => process.exit(0)));
  }
}

main().catch((error: unknown) => {
  reportStartFailure(error);
  process.exit(1);
});
