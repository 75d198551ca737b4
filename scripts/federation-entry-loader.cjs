// Webpack loader of the entry Module Federation writes for each build, node_modules/.federation/
// entry.<md5>.js (webpack.factory.cjs): it imports the federation runtime, and the shell's runtime
// plugins, by absolute path, and its name is an md5 of that text. Both would put the folder of the
// build into the output: its text into the module's hash (so into the first content hashes, which the
// source maps keep) and into the source maps. The loader imports the same files by relative path,
// and gives the generated file an empty source map, so neither its text nor its name is in the maps.
const path = require('node:path');

/** @this {import('webpack').LoaderContext<void>} */
module.exports = function federationEntryLoader(source) {
  const text = source.replace(/(\bfrom\s+)'([^']+)'/g, (statement, from, file) => {
    if (!path.isAbsolute(file)) return statement;
    const relative = path.relative(this.context, file).split(path.sep).join('/');
    return `${from}'${relative.startsWith('.') ? relative : `./${relative}`}'`;
  });
  this.callback(null, text, { version: 3, sources: [], names: [], mappings: '' });
};
