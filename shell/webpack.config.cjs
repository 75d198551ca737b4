const { createWebpackConfig, SHELL_DEV_PORT } = require('../webpack.factory.cjs');

// The host declares no remotes at build time: it reads /remotes.json when the console starts
// (src/remotes.ts), so remotes deploy and move without rebuilding the shell.
module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'shell',
  devPort: SHELL_DEV_PORT,
  title: 'Veritas',
  // A remote that fails to load is loaded once more before its page shows the error card; its
  // entry script is loaded with the integrity /remotes.json gives; its manifest is checked against
  // what this console provides before any of its code runs.
  runtimePlugins: [
    require.resolve('./src/retry-plugin.ts'),
    require.resolve('./src/integrity-plugin.ts'),
    require.resolve('./src/compatibility-plugin.ts'),
  ],
  // What a signed-in page load imports besides the shared packages: the page document preloads
  // their chunks (page-load.json).
  pageLoadImports: [
    './bootstrap',
    './signed-in-routes',
    './page-codes',
    '@veritas/shared/remote-compatibility',
    './search-select-combobox',
  ],
});
