// Two builds from one config: the default mode builds the Vike landing viewer
// (pages/ → dist/client + dist/server); `--mode spa` builds the back-office SPA
// (admin-spa/ → dist/spa, assets under /spa-assets/).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import vike from 'vike/plugin';
import { spaAliases } from './spa-aliases.ts';

export default defineConfig(({ mode }) =>
  mode === 'spa'
    ? {
        root: 'admin-spa',
        base: '/',
        plugins: [react()],
        resolve: { alias: spaAliases },
        build: {
          outDir: '../dist/spa',
          emptyOutDir: true,
          assetsDir: 'spa-assets',
          chunkSizeWarningLimit: 1200,
          modulePreload: { polyfill: false },
          manifest: true,
        },
        server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
      }
    : {
        plugins: [react(), vike()],
        build: { emptyOutDir: true },
      },
);
