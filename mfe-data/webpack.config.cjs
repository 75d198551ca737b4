const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'data',
  devPort: 3004,
  exposes: {
    './Upload': './src/upload-page.tsx',
    './Download': './src/download-page.tsx',
    './downloadApk': './src/download-apk.ts',
  },
  title: 'Veritas · Data',
});
