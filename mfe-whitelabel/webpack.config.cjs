const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'whitelabel',
  devPort: 3005,
  exposes: {
    './WhiteLabel': './src/white-label-page.tsx',
  },
  title: 'Veritas · White Label',
});
