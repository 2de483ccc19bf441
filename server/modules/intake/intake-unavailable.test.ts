// Intake and the back office while the database is away — PostgreSQL out of reach (a proxy in
// front of it cuts every connection and refuses new ones), SQLite's write lock held by another
// connection past the busy timeout: a 503 with a Korean message, never a 500; leads are taken
// again as soon as the database is back.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countRows, landingTestApp, leadBody, openLanding, submit, type LandingTestApp } from '../../test-landings.ts';
import { openDatabase, type DbHandle } from '../../db/dialect.ts';
import { tcpProxy } from '../../test-tcp-proxy.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import { INTAKE_MESSAGES } from '../../../contracts/intake.ts';

interface Outage {
  database: DbHandle;
  /** The database goes away. */
  away(): Promise<void>;
  back(): Promise<void>;
  close(): Promise<void>;
}

/** PostgreSQL behind a proxy that can cut it off, on a fresh schema. */
async function postgresOutage(): Promise<Outage> {
  const url = process.env.TEST_DATABASE_URL!;
  const target = new URL(url);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const schema = `t_${crypto.randomBytes(6).toString('hex')}`;
  const handle = await openDatabase({ url: proxy.via(url), pgSchema: schema, poolSize: 4 });
  return {
    database: {
      ...handle,
      async close() {
        await handle.close();
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema if exists "${schema}" cascade`);
        await c.end();
      },
    },
    away: () => proxy.cut(),
    back: () => proxy.restore(),
    close: () => proxy.close(),
  };
}

/** A SQLite file whose write lock another connection can take and keep. */
async function sqliteOutage(): Promise<Outage> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadroom-outage-'));
  const file = path.join(dir, 'leadroom.sqlite');
  const database = await openDatabase({ url: file, busyTimeoutMs: 100 });
  const other = new Sqlite(file);
  return {
    database,
    away: async () => void other.exec('begin immediate'),
    back: async () => void other.exec('rollback'),
    async close() {
      other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

let t: LandingTestApp;
let landingId: number;
let outage: Outage;

describe('while the database is away', () => {
  beforeEach(async () => {
    outage = await (process.env.LR_TEST_DIALECT === 'postgres' ? postgresOutage() : sqliteOutage());
    // Intake commits on the app's own connection (SQLite's writer thread would wait 30 s for the lock).
    t = await landingTestApp({ intakeWriterThread: false }, { database: outage.database });
    landingId = await openLanding(t);
  });
  afterEach(async () => {
    await outage.back().catch(() => {});
    await t.close();
    await outage.close();
  });

  it('intake answers 503 with a Korean message, as JSON and as a page, and takes leads again once it is back', async () => {
    expect((await submit(t, leadBody(t, landingId, { phone: '010-5000-0001' }))).statusCode).toBe(201);
    await outage.away();

    const json = await submit(t, leadBody(t, landingId, { phone: '010-5000-0002' }));
    expect(json.statusCode).toBe(503);
    expect(json.json()).toEqual({ error: { code: ERROR_CODES.UNAVAILABLE, message: INTAKE_MESSAGES.unavailable } });
    const page = await submit(t, leadBody(t, landingId, { phone: '010-5000-0003' }), { form: true });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(INTAKE_MESSAGES.unavailable);

    await outage.back();
    expect((await submit(t, leadBody(t, landingId, { phone: '010-5000-0004' }))).statusCode).toBe(201);
    expect(await countRows(t, 'leads')).toBe(2);
  });

  it('the back office answers 503 with a Korean message, not a 500', async () => {
    await outage.away();
    // A write (SQLite's lock bars writers only); on PostgreSQL already the session lookup fails.
    const res = await t.admin.post(`/api/shops/${t.shopId}/landings/${landingId}/close`);
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe(ERROR_CODES.UNAVAILABLE);
    expect(res.json().error.message).toMatch(/[가-힣]/);
  });
});
