// The shell and the pick list compiled together, without Module Federation: the shell's own
// production configuration (webpack.factory.cjs) with its federation plugin left out and the
// federation runtime replaced by ./runtime.ts. Built by bench/first-rows.ts into .bench/one-bundle.
const path = require('node:path');
const shellConfig = require('../../../shell/webpack.config.cjs');

module.exports = (env, argv) => {
  const config = shellConfig(env, argv);
  return {
    ...config,
    output: { ...config.output, path: path.resolve(__dirname, '../../../.bench/one-bundle') },
    resolve: {
      ...config.resolve,
      alias: { '@module-federation/enhanced/runtime$': path.resolve(__dirname, 'runtime.ts') },
    },
    plugins: config.plugins.filter((plugin) => plugin.constructor.name !== 'ModuleFederationPlugin'),
  };
};
