// `pnpm start`: build what is not built yet (or is older than its sources), then serve the whole
// product with demo data unless VERITAS_DEMO says otherwise.
import { buildStale } from './build-stale.mjs';

buildStale();
process.env.VERITAS_DEMO ??= '1';
const { serveUntilStopped } = await import('./serve.mjs');
await serveUntilStopped();
