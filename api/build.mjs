// Production build of the API: one CommonJS bundle per entry: dist/server.js (createServer, for
// the console's composition, scripts/serve.mjs), dist/start-api.js (the API alone) and
// dist/seed.js (the demo data and the benchmarks' volume, api/seed/). tsc only type-checks
// (`pnpm typecheck`); esbuild bundles because @veritas/shared ships TypeScript sources, which Node
// cannot load: the rules the server shares with the console (@veritas/shared/domain) are compiled
// in, every npm dependency stays an ordinary require. The server's bundles must not carry seed or
// test code: the build fails if they reach api/seed/ or @veritas/shared/testing.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { dependencies } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

const { metafile } = await build({
  entryPoints: { server: 'src/server.ts', 'start-api': 'src/start-api.ts', seed: 'seed/index.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  metafile: true,
  external: Object.keys(dependencies).filter((name) => !name.startsWith('@veritas/')),
  logLevel: 'warning',
});

for (const output of ['dist/server.js', 'dist/start-api.js']) {
  const foreign = Object.keys(metafile.outputs[output].inputs).filter(
    (input) => input.startsWith('seed/') || input.includes('shared/src/testing/'),
  );
  if (foreign.length > 0) throw new Error(`${output} must not bundle seed or test code: ${foreign.join(', ')}`);
}
