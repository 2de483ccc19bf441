// DB 등록 end to end, in real Chromium against the built product with demo data: a marketer of
// the demo dental clinic (업체관리자 only reads this screen) imports a CSV with some bad rows,
// sees the columns connected from the Korean headers, follows the progress, and downloads the
// report of the rows left out; a lead entered by hand shows where it went.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, TEST_MS, WAIT, WAIT_MS } from './harness.ts';

const e2e = setupProduct();

/** 20,000 rows (long enough to watch), every 1,000th without a name and the next with a broken phone. */
function leadsCsv(rows: number): { csv: Buffer; bad: number[] } {
  const lines = ['고객명,휴대폰,상담내용,지역'];
  const bad: number[] = [];
  for (let i = 0; i < rows; i++) {
    const phone = `010-${5000 + Math.floor(i / 10_000)}-${String(i % 10_000).padStart(4, '0')}`;
    if (i % 1000 === 3) {
      bad.push(i + 2);
      lines.push(`,${phone},이름 없음,서울`);
    } else if (i % 1000 === 4) {
      bad.push(i + 2);
      lines.push(`번호오류${i},010-12,,서울`);
    } else lines.push(`가져옴${i},${phone},상담 희망,${i % 2 ? '서울' : '경기'}`);
  }
  return { csv: Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`), bad };
}

describe('DB 등록', () => {
  it('imports a CSV with bad rows: mapping from the headers, progress, and the error report', { timeout: TEST_MS + 4 * WAIT_MS }, async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url, { acceptDownloads: true });
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/data-insertion?tab=import');
    const { csv, bad } = leadsCsv(20_000);
    await page.locator('input[type=file]').setInputFiles({ name: '상담명단.csv', mimeType: 'text/csv', buffer: csv });

    // The columns are connected from their Korean names; the first rows are shown.
    await expect.poll(() => page.getByText('상담명단.csv — 20,000행').isVisible(), WAIT).toBe(true);
    const mappingRow = (header: string) => page.locator('.ant-table-row', { hasText: header }).first();
    expect(await mappingRow('고객명').innerText()).toContain('이름');
    expect(await mappingRow('휴대폰').innerText()).toContain('연락처');
    expect(await mappingRow('상담내용').innerText()).toContain('메모');
    expect(await page.getByText('미리보기 (처음 10행)').isVisible()).toBe(true);
    await screenshot(page, 'e2e-data-insertion-mapping');

    await page.locator('#import-consent_consentBasis').click();
    await page.getByTitle('서면 동의').click();
    await page.getByRole('button', { name: '20,000행 가져오기' }).click();

    // Progress, then the result.
    const progress = page.locator('.ant-card', { has: page.locator('.ant-progress') });
    await expect.poll(async () => (await progress.count()) > 0 && /행 검사 중|등록 중/.test(await progress.first().innerText()), WAIT).toBe(true);
    await expect.poll(() => page.getByText(`${(20_000 - bad.length).toLocaleString('ko-KR')}건을 등록했습니다`).isVisible(), { timeout: 4 * WAIT_MS }).toBe(true);
    expect(await page.getByText(`가져오지 못한 행 ${bad.length}행`).isVisible()).toBe(true);
    await screenshot(page, 'e2e-data-insertion-result');

    // The error report: Excel's UTF-8 (a BOM), each bad row with its column, reason and values.
    const [report] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: '오류 보고서 내려받기' }).click()]);
    expect(report.suggestedFilename()).toBe('상담명단-오류.csv');
    const text = fs.readFileSync((await report.path())!, 'utf8');
    expect(text.startsWith('\ufeff행 번호,열,사유,고객명,휴대폰,상담내용,지역')).toBe(true);
    const lines = text.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    expect(lines).toHaveLength(bad.length + 1);
    expect(lines[1]).toBe('5,고객명,이름이 비어 있습니다.,,010-5000-0003,이름 없음,서울');
    expect(lines[2]).toBe('6,휴대폰,올바른 전화번호가 아닙니다.,번호오류4,010-12,,서울');

    // The imported leads are in DB 현황, and the import in the history.
    await expect.poll(() => page.locator('.ant-table-row', { hasText: '상담명단.csv' }).first().innerText(), WAIT).toContain('완료');
    await page.goto(`/database-status?q=${encodeURIComponent('가져옴1234')}`);
    await expect.poll(() => page.locator('.ant-table-row', { hasText: '가져옴1234' }).first().isVisible(), WAIT).toBe(true);
  });

  it('enters a lead by hand: Korean errors on the fields, then where it went', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url);
    await login(page, 'marketer', DEMO_PASSWORD);
    await page.goto('/data-insertion');
    await page.getByLabel('이름', { exact: true }).fill('수기등록');
    await page.getByLabel('연락처', { exact: true }).fill('010-12');
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect.poll(() => page.getByText('올바른 전화번호를 입력하세요.').isVisible(), WAIT).toBe(true);
    await expect.poll(() => page.getByText('개인정보 수집 근거를 선택하세요.').isVisible(), WAIT).toBe(true);

    await page.getByLabel('연락처', { exact: true }).fill('010-5999-0001');
    await page.locator('#manual-lead_consentBasis').click();
    await page.getByTitle('전화 상담 중 구두 동의').click();
    await page.getByRole('button', { name: '등록', exact: true }).click();
    await expect.poll(() => page.getByText('수기등록 (010-5999-0001) 님을 등록했습니다.').isVisible(), WAIT).toBe(true);
    expect(await page.locator('.ant-alert', { hasText: '담당' }).first().innerText()).toMatch(/담당: \S+/);
    await screenshot(page, 'e2e-data-insertion-manual');
  });
});
