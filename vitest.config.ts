import { defineConfig } from 'vitest/config';
import { spaAliases } from './spa-aliases.ts';

const server = ['server/**/*.test.ts'];
const pg = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Two files at once, also on 2 cores (vitest's default there is one): a test spends much of its
    // time waiting on the database or a socket. SQLite unit tests: 3 min 32 s → 2 min 29 s on 2 idle cores.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias: spaAliases },
        test: {
          name: 'sqlite',
          include: ['server/**/*.test.ts', 'contracts/**/*.test.ts', 'admin-spa/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          env: { LR_TEST_DIALECT: 'sqlite', NODE_ENV: 'test' },
          // A test app with demo data takes seconds on a busy machine (load 15–25 on 2 cores: 10 s and more).
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      ...(pg
        ? [{ test: { name: 'postgres', include: server, env: { LR_TEST_DIALECT: 'postgres', NODE_ENV: 'test' }, testTimeout: 60_000, hookTimeout: 60_000 } }]
        : []),
    ],
  },
});
