import { defineConfig } from 'vitest/config';
import { HOOK_MS, TEST_MS, WAIT_MS } from './e2e/waits.ts';

// Browser tests in real Chromium against the built product (npm run build first).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: TEST_MS,
    hookTimeout: HOOK_MS,
    teardownTimeout: HOOK_MS,
    // An expect.poll without its own timeout waits as long as the rest (vitest's default: 1 s).
    expect: { poll: { timeout: WAIT_MS, interval: 100 } },
    // Each file starts its own product (its own port and data directory) and browser: two at once.
    fileParallelism: true,
    maxWorkers: 2,
    env: { NODE_ENV: 'test' },
  },
});
