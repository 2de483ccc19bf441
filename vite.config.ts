// Two builds from one config: the default mode builds the Vike landing viewer
// (pages/ → dist/client + dist/server); `--mode spa` builds the back-office SPA
// (admin-spa/ → dist/spa, assets under /spa-assets/).
//
// The SPA's chunks: a screen load is a handful of them, not the ~80 that splitting by importer
// made (every antd part, icon and contract a chunk of its own). React and the router (the entry's);
// the UI kit (antd with its parts and icons, dayjs, react-query, zod); echarts (only where a chart
// is drawn, after the screen); the back office's shared code (components, lib, contracts); then
// the entry and each screen's own chunk. Modules the entry (the login screen's load) needs stay
// out of the shared groups, so /bclog loads none of them (npm run bench checks its size).
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import vike from 'vike/plugin';
import { spaAliases } from './spa-aliases.ts';

/** The entry's own modules (main.tsx and what it imports): never put in a shared chunk. */
const ENTRY_MODULES = /[\\/](contracts[\\/](screens|permissions|http|session|endpoint|errors)\.ts|admin-spa[\\/](lib[\\/](auth\.tsx|api\.ts|drafts\.ts|session\.ts|chunk-reload\.ts|preloadable\.ts|prefetch\.ts)|layouts[\\/](guard|screen-gate|route-error)\.tsx))$/;
const SPA_CHUNKS = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom)[\\/]/, priority: 40 },
  { name: 'charts', test: /node_modules[\\/](echarts|zrender)[\\/]/, priority: 30 },
  // One chunk, not the parts few screens use split off: a part left out may need a module the UI
  // chunk holds while the UI chunk needs one of its own (a cycle between chunks: "Class extends
  // value undefined" at load).
  { name: 'ui', test: /node_modules[\\/]/, priority: 20 },
  { name: 'shared', test: (id: string) => /[\\/](admin-spa[\\/](lib|components|layouts)|contracts)[\\/]/.test(id) && !ENTRY_MODULES.test(id) && !id.endsWith('chart.tsx'), priority: 10 },
];

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
          rolldownOptions: { output: { codeSplitting: { includeDependenciesRecursively: false, groups: SPA_CHUNKS } } },
        },
        server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
      }
    : {
        plugins: [react(), vike()],
        build: { emptyOutDir: true },
      },
);
