// Delivery to a shop's own system end to end, in real Chromium against the built product with
// demo data: the shop owner adds a webhook channel, keeps its secret and sends a test; a
// visitor's lead reaches the receiver within seconds and shows 성공 in DB 전송 이력; with the
// receiver down the next lead fails and waits for its retry, and once the receiver is back the
// worker's own retry delivers it — once, under the key the failed attempt carried.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, submitAsVisitor as visit, WAIT } from './harness.ts';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, type WebhookBody } from '../contracts/delivery.ts';

// The shop's CRM here listens on loopback: allowed as an operator allows an on-premise CRM.
const e2e = setupProduct({ OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' });
const SHOP = 'smile-dental';
const CHANNEL = '스마일 CRM 연동';
// Phones outside the demo leads' range (010-2000… to 010-9999…): neither is a duplicate.
const FIRST = ['전송방문일', '010-1468-0001'] as const;
const SECOND = ['전송방문이', '010-1468-0002'] as const;

const submitAsVisitor = ([name, phone]: readonly [string, string]) => visit(e2e.browser, e2e.product.url, name, phone);

interface Receipt {
  body: string;
  json: WebhookBody;
  key: string;
  signature: string;
}

/**
 * The shop's CRM: a node:http server on loopback answering 200 and keeping every request.
 * Stopped, its port refuses connections; started again, it listens on the same port.
 */
class Receiver {
  readonly receipts: Receipt[] = [];
  port = 0;
  private server: http.Server | null = null;

  async start(): Promise<void> {
    const server = http.createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        this.receipts.push({
          body,
          json: JSON.parse(body) as WebhookBody,
          key: String(req.headers[IDEMPOTENCY_HEADER.toLowerCase()] ?? ''),
          signature: String(req.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''),
        });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** Closes the port, and the product's kept-alive connections with it. */
  async stop(): Promise<void> {
    const server = this.server!;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** The receipts carrying a lead of this name. */
  of(name: string): Receipt[] {
    return this.receipts.filter((r) => r.json.leads.some((l) => l.name === name));
  }
}

/** True when one of the header's v1 signatures is the HMAC-SHA256 of "<t>.<body>" with `secret`. */
function signedWith(r: Receipt, secret: string): boolean {
  const parts = r.signature.split(',').map((p) => p.split('=') as [string, string]);
  const t = parts.find(([k]) => k === 't')?.[1];
  if (!t || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = crypto.createHmac('sha256', secret).update(`${t}.${r.body}`).digest('hex');
  return parts.some(([k, v]) => k === 'v1' && v === expected);
}

/** Waits until no finite animation runs (a drawer closing, a modal zooming in), for a clean screenshot. */
async function settled(page: Page): Promise<void> {
  const running = () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length);
  await expect.poll(running, WAIT).toBe(0);
}

/** Logs in and makes the demo dental shop the current one. */
async function enterShop(page: Page, loginId: string): Promise<void> {
  await login(page, loginId, DEMO_PASSWORD);
  await page.evaluate(async (code) => {
    const shops = (await (await fetch('/api/auth/shops')).json()).items as Array<{ id: number; shopCode: string }>;
    sessionStorage.setItem('currentShopId', String(shops.find((s) => s.shopCode === code)!.id));
  }, SHOP);
}

/** The delivery job of a lead (by name) to our channel, read from the product's own database. */
function jobOf(name: string): { status: string; attempts: number; idempotency_key: string } | undefined {
  const db = new Database(path.join(e2e.product.dataDir, 'leadroom.sqlite'), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(
        `select j.status, j.attempts, j.idempotency_key from delivery_jobs j
         join leads l on l.id = j.lead_id join delivery_channels c on c.id = j.channel_id
         where l.name = ? and c.name = ?`,
      )
      .get(name, CHANNEL) as { status: string; attempts: number; idempotency_key: string } | undefined;
  } finally {
    db.close();
  }
}

interface AttemptRow {
  result: string;
  code: string;
  error: string;
  attempt: string;
  now: string;
}

/** DB 전송 이력's rows for a lead (by name) to our channel, newest first, by column. */
async function attemptsOf(page: Page, name: string): Promise<AttemptRow[]> {
  const rows = page.locator('.ant-table-row', { hasText: name }).filter({ hasText: CHANNEL });
  const out: AttemptRow[] = [];
  for (const row of await rows.all()) {
    // 시각, DB, 채널, 구분, 결과, 응답 코드, 오류, 소요, 시도, 현재 상태
    const cells = (await row.locator('td').allInnerTexts()).map((t) => t.trim());
    out.push({ result: cells[4]!, code: cells[5]!, error: cells[6]!, attempt: cells[8]!, now: cells[9]! });
  }
  return out;
}

const digits = (s: string | undefined) => (s ?? '').replace(/\D/g, '');

describe('delivery to the shop', () => {
  it('delivers to a webhook the owner set up, fails while the receiver is down, and delivers on the retry once it is back', async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      const { page } = await newPage(e2e.browser, e2e.product.url);
      await enterShop(page, 'owner');

      // DB 전송 설정 → 채널 추가 → 웹훅: a name and the receiver's address; the default fields.
      await page.goto('/database-delivery-settings');
      const add = page.getByRole('button', { name: /채널 추가/ });
      await expect.poll(() => add.isVisible(), WAIT).toBe(true);
      const webhookItem = page.locator('.ant-dropdown:visible .ant-dropdown-menu-item', { hasText: '웹훅' });
      const drawer = page.locator('.ant-drawer', { hasText: '전송 채널 추가' });
      // The menu opens on hover and closes when the pointer leaves: the list arriving under a
      // loaded machine moves the button away from it. Hovered again until the item is chosen.
      await expect.poll(async () => {
        await add.hover().catch(() => {});
        await webhookItem.click({ timeout: 3_000 }).catch(() => {});
        return drawer.getByLabel('채널 이름').isVisible();
      }, WAIT).toBe(true);
      expect(await drawer.locator('.ant-radio-button-wrapper-checked').innerText()).toBe('웹훅');
      await drawer.getByLabel('채널 이름').fill(CHANNEL);
      await drawer.getByLabel('받을 주소 (URL)').fill(receiver.url);
      await drawer.getByLabel('받을 주소 (URL)').blur();
      await settled(page);
      await screenshot(page, 'e2e-delivery-channel-form', { fullPage: false });
      expect(await drawer.locator('.ant-form-item-explain-error').count()).toBe(0);
      await drawer.getByRole('button', { name: '추가', exact: true }).click();

      // The secret, shown once: kept to check the signatures with.
      const modal = page.locator('.ant-modal', { hasText: `서명 비밀키 · ${CHANNEL}` });
      await expect.poll(() => modal.isVisible(), WAIT).toBe(true);
      const secret = (await modal.getByText(/^whsec_/).innerText()).trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
      expect(await modal.getByText('이 비밀키는 지금 한 번만 보여 드립니다.').isVisible()).toBe(true);
      await expect.poll(() => drawer.isVisible(), WAIT).toBe(false);
      await settled(page);
      await screenshot(page, 'e2e-delivery-secret', { fullPage: false });
      // The footer closes it ("닫기"): copying is the copy icon's job, not the close button's.
      await modal.locator('.ant-modal-footer').getByRole('button', { name: '닫기', exact: true }).click();
      await expect.poll(() => modal.isVisible(), WAIT).toBe(false);

      // 테스트 전송: the receiver's answer on the card; a signed sample at the receiver.
      const card = page.locator('.ant-card', { has: page.locator('.ant-card-head', { hasText: CHANNEL }) });
      await expect.poll(() => card.isVisible(), WAIT).toBe(true);
      expect(await card.innerText()).toContain(`127.0.0.1:${receiver.port}`);
      expect(await card.innerText()).toContain(`${secret.slice(0, 12)}…`);
      await card.getByRole('button', { name: /테스트 전송/ }).click();
      const answer = card.locator('.ant-alert', { hasText: '테스트 전송' });
      await expect.poll(() => answer.isVisible(), WAIT).toBe(true);
      expect(await answer.innerText()).toMatch(/테스트 전송 성공 · 응답 200 · [\d,]+ms/);
      expect(await answer.innerText()).toContain('{"received":true}');
      await settled(page);
      await screenshot(page, 'e2e-delivery-test-sent');
      const tests = receiver.receipts.filter((r) => r.json.event === 'lead.test');
      expect(tests).toHaveLength(1);
      expect(signedWith(tests[0]!, secret)).toBe(true);
      expect(signedWith(tests[0]!, `${secret}x`)).toBe(false);
      expect(tests[0]!.key).not.toBe('');
      expect(tests[0]!.json.shop.code).toBe(SHOP);

      // A visitor submits: within seconds the receiver has the lead, its number in full, signed.
      await submitAsVisitor(FIRST);
      await expect.poll(() => receiver.of(FIRST[0]).length, WAIT).toBe(1);
      const first = receiver.of(FIRST[0])[0]!;
      expect(first.json.event).toBe('lead.created');
      expect(digits(first.json.leads[0]!.phone)).toBe(digits(FIRST[1]));
      expect(signedWith(first, secret)).toBe(true);
      expect(first.key).toBe(jobOf(FIRST[0])!.idempotency_key);

      // DB 전송 이력: 성공, the answer 200, the first try.
      await page.goto('/shop-data-deliver-history');
      const firstRow = page.locator('.ant-table-row', { hasText: FIRST[0] }).filter({ hasText: CHANNEL });
      await expect.poll(() => firstRow.count(), WAIT).toBe(1);
      const firstText = await firstRow.innerText();
      for (const shown of ['성공', '200', '1번째', '010-****-0001', '자동']) expect(firstText).toContain(shown);
      await settled(page);
      await screenshot(page, 'e2e-delivery-history-succeeded');

      // The receiver goes down; the next lead fails (connection refused) and waits for its retry.
      await receiver.stop();
      const before = receiver.receipts.length;
      await submitAsVisitor(SECOND);
      await page.goto('/shop-data-deliver-history?tab=jobs');
      const waiting = page.locator('.ant-table-row', { hasText: SECOND[0] }).filter({ hasText: CHANNEL });
      await expect.poll(() => waiting.innerText().catch(() => ''), WAIT).toContain('수신 서버에 연결할 수 없습니다');
      const waitingText = await waiting.innerText();
      expect(waitingText).toContain('재시도 대기');
      // One answer for every failure to connect: the screen names no system error a port scan could read.
      expect(waitingText).not.toContain('ECONNREFUSED');
      const failed = jobOf(SECOND[0])!;
      // Waiting for its next try (or, for a moment, in one).
      expect(['pending', 'sending']).toContain(failed.status);
      expect(failed.attempts).toBeGreaterThanOrEqual(1);
      await settled(page);
      await screenshot(page, 'e2e-delivery-jobs-waiting');

      // Back up: the worker's own retry (after about 5 s) delivers it, once, under the same key.
      await receiver.start();
      await page.getByRole('tab', { name: /전송 이력/ }).click();
      await expect.poll(async () => (await attemptsOf(page, SECOND[0])).some((a) => a.result === '성공'), WAIT).toBe(true);
      const tries = (await attemptsOf(page, SECOND[0])).reverse();
      // Refused until the receiver was back (once, or twice when a retry came before it), then delivered.
      expect(tries.length).toBeGreaterThanOrEqual(2);
      tries.forEach((a, i) => {
        expect(a.attempt).toBe(`${i + 1}번째`);
        expect(a.result).toBe(i < tries.length - 1 ? '실패' : '성공');
        if (a.result === '실패') expect(a.error).toContain('수신 서버에 연결할 수 없습니다');
        else expect(a.code).toBe('200');
        expect(a.now).toBe('성공');
      });
      const failures = tries.length - 1;
      await settled(page);
      await screenshot(page, 'e2e-delivery-history-retried');

      expect(receiver.receipts.length).toBe(before + 1);
      const second = receiver.of(SECOND[0]);
      expect(second).toHaveLength(1);
      expect(second[0]!.json.event).toBe('lead.created');
      expect(digits(second[0]!.json.leads[0]!.phone)).toBe(digits(SECOND[1]));
      expect(signedWith(second[0]!, secret)).toBe(true);
      expect(second[0]!.key).toBe(failed.idempotency_key);
      const done = jobOf(SECOND[0])!;
      expect(done.status).toBe('succeeded');
      expect(done.attempts).toBe(failures + 1);
      expect(done.idempotency_key).toBe(failed.idempotency_key);

      // Nothing left waiting for our channel.
      await page.getByRole('tab', { name: /대기·실패 중/ }).click();
      // Only the open tab's table is rendered: this one has 마지막 오류.
      const table = page.locator('.ant-table:visible', { has: page.locator('th', { hasText: '마지막 오류' }) });
      await expect.poll(() => table.isVisible(), WAIT).toBe(true);
      // The list kept from the earlier visit shows first, then the fresh one.
      await expect.poll(() => table.locator('.ant-table-row').filter({ hasText: CHANNEL }).count(), WAIT).toBe(0);
    } finally {
      await receiver.stop().catch(() => {});
    }
  });
});
