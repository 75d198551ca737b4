// Production build of the API: one CommonJS bundle per entry (dist/index.js for the console's
// server, dist/main.js to run the API alone). tsc only type-checks (`pnpm typecheck`); esbuild
// bundles because @veritas/shared ships TypeScript sources, which Node cannot load: the rules the
// server shares with the console (@veritas/shared/domain) are compiled in, every npm dependency
// stays an ordinary require.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const { dependencies } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: ['src/index.ts', 'src/main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: Object.keys(dependencies).filter((name) => !name.startsWith('@veritas/')),
  logLevel: 'warning',
});
