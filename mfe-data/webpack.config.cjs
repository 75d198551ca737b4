const { createWebpackConfig } = require('../webpack.factory.cjs');

module.exports = createWebpackConfig({
  dir: __dirname,
  name: 'data',
  devPort: 3004,
  exposes: {
    './Upload': './src/UploadPage.tsx',
    './Download': './src/DownloadPage.tsx',
    './downloadApk': './src/downloadApk.ts',
  },
  title: 'Veritas · Data',
});
