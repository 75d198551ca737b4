// The one webpack + Module Federation configuration factory: the shell and every remote
// build through it, so shared singletons, loaders and asset naming never drift apart.
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const CompressionPlugin = require('compression-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const webpack = require('webpack');
const YAML = require('yaml');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const helmet = require('helmet');
const { remoteOrigins, securityHeaders } = require('./scripts/deployment.cjs');
const { remoteAt } = require('./scripts/workspace-remotes.cjs');

/** The shell's dev server port (a remote's is its remote.json's devPort). */
const SHELL_DEV_PORT = 3000;

const root = __dirname;

// The entry Module Federation writes for each build: it imports the federation runtime (and the
// shell's runtime plugins) by absolute path, and the md5 in its name is of that text.
const FEDERATION_ENTRY = /[\\/]node_modules[\\/]\.federation[\\/]entry\.[0-9a-f]+\.js/;
const FEDERATION_ENTRY_LOADER = path.join(root, 'scripts/federation-entry-loader.cjs');

/**
 * Whether a module's deterministic id would differ in another folder. The id hashes the module's
 * identifier, whose paths webpack makes relative where they begin it or follow a `|` or `!`. Module
 * Federation writes absolute paths elsewhere (a provide module's `… react@19.3.1 = /…/index.js`, the
 * container entry's FEDERATION_ENTRY) and names its entry after absolute paths.
 */
function idDependsOnFolder(module) {
  const identifier = module.identifier();
  return FEDERATION_ENTRY.test(identifier) || identifier.includes(` ${root}${path.sep}`);
}

// pnpm's `workspace:*` would reach MF as an empty version, so every shared singleton
// carries the exact version of the package installed in the workspace.
function versionOf(pkg) {
  return require(
    require.resolve(`${pkg}/package.json`, { paths: [path.join(root, 'shell'), path.join(root, 'shared')] }),
  ).version;
}

function sharedSingletons() {
  const singleton = (pkg) => {
    const version = versionOf(pkg);
    return { singleton: true, version, requiredVersion: `^${version}` };
  };
  // react-router is not listed: @veritas/shared bundles it (see shared/src/router.ts). Nor is
  // zustand: only @veritas/shared uses it, so its stores are one with the package.
  return {
    react: singleton('react'),
    'react/': singleton('react'),
    'react-dom': singleton('react-dom'),
    'react-dom/': singleton('react-dom'),
    '@veritas/shared': singleton('@veritas/shared'),
    '@tanstack/react-query': singleton('@tanstack/react-query'),
    // The query client's entry: one cache for the shell and every remote (shared/src/query.tsx).
    '@veritas/shared/query': singleton('@veritas/shared'),
    // The table component: loaded with the first page that shows a table, not before the login
    // form, and once for the shell and every remote (shared/src/table.ts).
    '@veritas/shared/table': singleton('@veritas/shared'),
  };
}

/**
 * The importers of pnpm-lock.yaml a remote's build is made with: the root's (webpack, its loaders
 * and plugins), the shell's (the versions of the shared singletons, `versionOf`), @veritas/shared's
 * (whose sources it bundles) and its own; not the other projects'.
 */
const BUILD_IMPORTERS = ['.', 'shell', 'shared'];

/**
 * The part of the lockfile `lock` that can change the build of the project `importer` (a path from
 * the repository, forward slashes, e.g. 'mfe-devices'): everything but the entries of other
 * importers, as JSON. So a project added to the workspace, or another remote's dependency changed,
 * leaves the remote's digest as it was, while its own dependencies, shared's, the resolved packages
 * (packages, snapshots) and the settings all count. A lockfile without `importers` counts whole.
 */
function lockfileForBuild(lock, importer) {
  const keep = new Set([...BUILD_IMPORTERS, importer]);
  const parsed = YAML.parse(lock);
  if (parsed && typeof parsed.importers === 'object' && parsed.importers !== null) {
    parsed.importers = Object.fromEntries(Object.entries(parsed.importers).filter(([key]) => keep.has(key)));
  }
  return JSON.stringify(parsed);
}

/**
 * A digest of what a remote's build is made from: its own sources, @veritas/shared's, the part of
 * the lockfile its build uses (lockfileForBuild) and this configuration. Two versions of a remote
 * can run in one tab (one loaded before a newer one went live), and webpack's chunk-loading global
 * is named after `uniqueName`: shared by both, the newer version would take the older one's chunks
 * for its own. With the digest in the name, each build has its own global, and the same sources
 * still build to the same files (the registry recognises a build published twice), also after
 * another remote joined the workspace or changed its dependencies.
 * @param {string} dir the remote's package folder
 * @param {{lockfile?: string}} [o] the lockfile's text (default: the repository's pnpm-lock.yaml)
 */
function sourceDigest(dir, { lockfile = fs.readFileSync(path.join(root, 'pnpm-lock.yaml'), 'utf8') } = {}) {
  const hash = createHash('sha256');
  const add = (file) => hash.update(path.relative(root, file)).update(fs.readFileSync(file));
  const walk = (folder) => {
    // In code unit order: localeCompare's order is the machine's locale's.
    for (const entry of fs.readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else add(full);
    }
  };
  walk(path.join(dir, 'src'));
  walk(path.join(root, 'shared/src'));
  add(path.join(dir, 'package.json'));
  add(path.join(dir, 'remote.json'));
  // A remote outside the workspace (create-remote --dir) has no importer: its package.json counts.
  const importer = path.relative(root, dir).split(path.sep).join('/');
  hash.update('pnpm-lock.yaml').update(lockfileForBuild(lockfile, importer));
  for (const file of [__filename, FEDERATION_ENTRY_LOADER]) add(file);
  return hash.digest('hex').slice(0, 8);
}

/**
 * Emits the remote's declaration (its remote.json without the workspace's fields) into dist/: the
 * registry reads what the version adds to the console from there (docs/deploying-a-remote.md).
 */
class DeclarationPlugin {
  constructor(declaration) {
    this.source = JSON.stringify(declaration, null, 2) + '\n';
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('DeclarationPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'DeclarationPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => compilation.emitAsset('remote.json', new webpack.sources.RawSource(this.source)),
      );
    });
  }
}

/**
 * Emits page-load.json into the shell's dist/: the scripts a signed-in page load fetches after the
 * entry, which the server's page document preloads (api/src/registry/preloads.ts) so that
 * they arrive while the entry runs instead of one wave after another: the chunks of the shared
 * packages the shell provides, and of the dynamic imports named (e.g. './bootstrap').
 */
class PageLoadChunksPlugin {
  constructor(imports) {
    this.imports = new Set(imports);
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PageLoadChunksPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PageLoadChunksPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const files = new Set();
          for (const group of compilation.chunkGroups) {
            if (group.isInitial()) continue;
            const loaded = group.origins.some(
              ({ module, request }) => this.imports.has(request) || module?.constructor.name === 'ProvideSharedModule',
            );
            if (!loaded) continue;
            for (const chunk of group.chunks) for (const file of chunk.files) if (file.endsWith('.js')) files.add(file);
          }
          const list = JSON.stringify([...files].sort(), null, 2) + '\n';
          compilation.emitAsset('page-load.json', new webpack.sources.RawSource(list));
        },
      );
    });
  }
}

/**
 * The shell passes its options; a remote passes only its folder, and the rest comes from the
 * remote.json beside its package.json: name, exposed modules, dev port, page title.
 * @param {object} o
 * @param {string} o.dir          package folder (__dirname of its webpack.config.cjs)
 * @param {string} [o.name]       the shell: its federation name
 * @param {number} [o.devPort]    the shell: port of `webpack serve`
 * @param {string} [o.title]      the shell: page title
 * @param {string[]} [o.runtimePlugins]
 * @param {string[]} [o.pageLoadImports] the shell: dynamic imports a signed-in page load makes (page-load.json)
 */
function createWebpackConfig({ dir, runtimePlugins = [], pageLoadImports, ...host }) {
  const remote = remoteAt(dir);
  const { name, devPort, exposes, title } = remote
    ? { name: remote.name, ...remote.written }
    : { title: 'Veritas', ...host };
  return (_env, argv) => {
    const production = argv.mode === 'production';
    const isHost = !exposes;
    const apiTarget = process.env.VERITAS_API || 'http://127.0.0.1:8080';
    return {
      mode: production ? 'production' : 'development',
      context: dir,
      entry: './src/index.ts',
      // No eval-based source maps: the dev servers send the production Content-Security-Policy.
      devtool: production ? 'source-map' : 'cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        publicPath: isHost ? '/' : 'auto',
        filename: production ? '[name].[contenthash:8].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        uniqueName: isHost ? name : `${name}_${sourceDigest(dir)}`,
        clean: true,
      },
      resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                // The source map as an object, not JSON text: webpack makes the paths of an object
                // relative to the package (webpack://./src/…) and leaves text as it is, whose absolute
                // paths would make each module's hash depend on the folder, and so the first content
                // hashes, which the .map files keep (their `file`, the runtime's list of chunk files).
                parseMap: true,
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production } },
                  target: 'es2020',
                },
              },
            },
          },
          {
            test: /\.css$/,
            // Stylesheets ship inside the scripts (style-loader), so all they carry counts against
            // the shell's first load: production builds minify them and embed no source map.
            use: [
              'style-loader',
              { loader: 'css-loader', options: { sourceMap: !production } },
              ...(production
                ? [
                    {
                      loader: 'postcss-loader',
                      options: { sourceMap: false, postcssOptions: { plugins: [['cssnano', { preset: 'default' }]] } },
                    },
                  ]
                : []),
            ],
          },
          { test: /\.svg$/, type: 'asset/source' },
          // Module Federation's entry: its imports relative, no source map (scripts/federation-entry-loader.cjs).
          { test: FEDERATION_ENTRY, loader: FEDERATION_ENTRY_LOADER },
        ],
      },
      optimization: {
        runtimeChunk: false,
        // The same sources build to the same bytes in any folder, so the registry answers a build
        // published again as already published. Module ids are webpack's deterministic ids, except
        // for the few modules whose id would name the folder (idDependsOnFolder): these take the next
        // free numbers in module order, webpack's natural ids. Both plugins are under `plugins`.
        moduleIds: false,
        splitChunks: {
          cacheGroups: {
            // The runtime of style-loader and css-loader, which every stylesheet's module imports, in
            // one chunk: split by chunk group, the shell's first load carried it twice.
            styleRuntime: {
              test: /[\\/]node_modules[\\/](style-loader|css-loader)[\\/]dist[\\/]runtime[\\/]/,
              name: 'style-runtime',
              chunks: 'all',
              enforce: true,
            },
          },
        },
      },
      performance: { hints: false },
      plugins: [
        new webpack.ids.DeterministicModuleIdsPlugin({ test: (module) => !idDependsOnFolder(module) }),
        new webpack.ids.NaturalModuleIdsPlugin(),
        new ModuleFederationPlugin({
          name,
          ...(exposes
            ? {
                filename: 'remoteEntry.[contenthash:8].js',
                exposes,
                // The entry script declares its container as a global variable (the manifest's
                // globalName, which the runtime reads): a remote's name may hold hyphens
                // (case-queue), a variable's may not.
                library: { type: 'var', name: name.replace(/-/g, '_') },
              }
            : {}),
          remotes: {},
          shared: sharedSingletons(),
          // version-first would fetch every remote at start, so one dead remote stalls the shell.
          shareStrategy: 'loaded-first',
          runtimePlugins,
          manifest: {
            // mf-stats.json lists which exposed modules use each shared package, first the one
            // webpack happened to build first: in order, the same sources give the same file.
            additionalData: ({ stats }) => {
              for (const item of [...stats.shared, ...stats.remotes]) item.usedIn.sort();
              for (const expose of stats.exposes) expose.requires.sort();
            },
          },
          dts: false,
          // Browser-only builds: lets the runtime drop its Node.js loading paths.
          experiments: { optimization: { target: 'web' } },
        }),
        new HtmlWebpackPlugin({
          template: path.join(root, 'index.html'),
          title,
          // The console's icon (shell/favicon.svg), which browsers otherwise ask for as /favicon.ico.
          ...(isHost ? { favicon: path.join(dir, 'favicon.svg') } : {}),
        }),
        ...(remote ? [new DeclarationPlugin(remote.declaration)] : []),
        ...(pageLoadImports ? [new PageLoadChunksPlugin(pageLoadImports)] : []),
        // The shell's scripts, compressed once at their best here rather than on every request:
        // scripts/serve.mjs sends these from memory (api/src/registry/static-files.ts), which
        // leaves the server's CPU to the API while many consoles load at once. A remote's files
        // are compressed by the registry when published.
        ...(isHost && production
          ? [
              new CompressionPlugin({ test: /\.js$/, algorithm: 'gzip', compressionOptions: { level: 9 } }),
              new CompressionPlugin({
                test: /\.js$/,
                algorithm: 'brotliCompress',
                filename: '[path][base].br',
                compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
              }),
            ]
          : []),
      ],
      devServer: {
        port: devPort,
        host: '127.0.0.1',
        historyApiFallback: true,
        hot: false,
        headers: { 'Access-Control-Allow-Origin': '*' },
        // The security headers of the production origins (scripts/deployment.cjs); the shell may
        // load the remotes named by the same configuration as /remotes.json.
        setupMiddlewares: (middlewares) => [
          helmet(
            isHost
              ? securityHeaders({ remoteOrigins: remoteOrigins() })
              : securityHeaders({ crossOriginResources: true }),
          ),
          ...middlewares,
        ],
        // /remotes.json and the registry's files (/remotes/…) come from the API, like /veritas.
        proxy: [{ context: ['/veritas', '/remotes'], target: apiTarget, changeOrigin: false }],
      },
    };
  };
}

module.exports = { createWebpackConfig, sharedSingletons, sourceDigest, lockfileForBuild, SHELL_DEV_PORT };
