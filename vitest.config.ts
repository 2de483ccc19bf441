import { defineConfig } from 'vitest/config';
import { spaAliases } from './spa-aliases.ts';

const server = ['server/**/*.test.ts'];
const pg = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: spaAliases },
        test: {
          name: 'sqlite',
          include: ['server/**/*.test.ts', 'contracts/**/*.test.ts', 'admin-spa/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
          env: { LR_TEST_DIALECT: 'sqlite', NODE_ENV: 'test' },
          testTimeout: 20_000,
        },
      },
      ...(pg
        ? [{ test: { name: 'postgres', include: server, env: { LR_TEST_DIALECT: 'postgres', NODE_ENV: 'test' }, testTimeout: 30_000 } }]
        : []),
    ],
  },
});
