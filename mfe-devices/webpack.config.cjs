const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'devices',
  devPort: 3002,
  exposes: { './ListDevices': './src/list-devices.tsx' },
  title: 'Veritas · Devices',
});
