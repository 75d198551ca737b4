// A benchmark's server (harness.ts startServerProcess): the production build, dist/server.js, in
// plain Node as `pnpm start` runs it, serving the prepared database (the options as JSON, the one
// argument) until killed; it tells the harness its port.
import crypto from 'node:crypto';
import server from '../dist/server.js';

const { app } = await server.createServer({
  ...JSON.parse(process.argv[2]),
  logger: false,
  adminPassword: crypto.randomUUID(),
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.send(app.server.address().port);
