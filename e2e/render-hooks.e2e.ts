// Rendering a landing through the build (Vike's renderPage) leaves the process without promise
// hooks: Vike's request storage (an AsyncLocalStorage) would turn them on for good, and every
// promise of every later request would pay for them (server/modules/landings/public/renderer.ts).
import { executionAsyncId } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../server/config.ts';
import { openDatabase, type DbHandle } from '../server/db/dialect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { ensureEssentials } from '../server/db/seed.ts';
import { pageRenderer } from '../server/modules/landings/public/renderer.ts';

/** The async id a promise continuation runs under: 0 unless something turned promise hooks on. */
async function continuationId(): Promise<number> {
  await null;
  await Promise.resolve();
  return executionAsyncId();
}

describe('a landing rendered through the build', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-render-hooks-'));
  let handle: DbHandle;
  beforeAll(async () => {
    const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' });
    handle = await openDatabase({ url: config.databaseUrl });
    await migrateToLatest(handle.db);
    await ensureEssentials(handle.db, { ...config, seedDemo: true, initialAdminPassword: 'Render-hooks-1' }, () => {});
  });
  afterAll(async () => {
    await handle?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('renders through Vike and leaves promise hooks off', async () => {
    expect(await continuationId()).toBe(0); // nothing in the test runner turned them on
    const renderer = await pageRenderer(path.resolve('dist'));
    expect(renderer.kind).toBe('vike');
    const html = await renderer.landing('smile-dental', 'implant-event', {
      db: handle.db, secret: Buffer.alloc(32, 1), now: new Date(), freeScripts: false,
    });
    expect(html).toContain('<form id="f" action="/api/public/leads" method="post">');
    expect(await continuationId()).toBe(0);
  });
});
