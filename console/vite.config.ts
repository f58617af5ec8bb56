import { defineConfig } from 'vite';

// `npm run build:console`: console/ into dist/console, which src/modules/console serves at /console.
export default defineConfig({
  base: '/console/',
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    // No inline script and no data: URL, which the console's Content-Security-Policy refuses.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
