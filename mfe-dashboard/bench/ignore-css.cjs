// @veritas/shared imports its stylesheet; in Node the bench needs its code only.
require.extensions['.css'] = () => {};
