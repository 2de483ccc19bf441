import { defineConfig } from 'vitest/config';

// Browser tests in real Chromium against the built product (npm run build first).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    fileParallelism: false,
    env: { NODE_ENV: 'test' },
  },
});
