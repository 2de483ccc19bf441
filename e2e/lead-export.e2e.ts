// Exporting DB 현황 in real Chromium against the built product with demo data: the shop's
// 업체관리자 (a type with the export right) exports the current period as CSV with a reason;
// the browser saves a file whose first line is the Korean header row, and the screen says so.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addDays, seoulDay } from '../contracts/kst.ts';
import { DEMO_PASSWORD, login, newPage, screenshot, setupProduct, WAIT } from './harness.ts';

const e2e = setupProduct();

describe('exporting DB 현황', () => {
  it('saves the filtered leads as a CSV with Korean headers, after a reason', async () => {
    const { page } = await newPage(e2e.browser, e2e.product.url, { acceptDownloads: true });
    await login(page, 'owner', DEMO_PASSWORD);
    const today = seoulDay(new Date());
    await page.goto(`/database-status?from=${addDays(today, -29)}&to=${today}`);
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThan(0);

    await page.getByRole('button', { name: '내보내기' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByText(/DB [\d,]+건을 내보냅니다/).isVisible(), WAIT).toBe(true);

    // No reason: the form says what to enter, and nothing is sent.
    await dialog.getByRole('button', { name: '내보내기' }).click();
    await expect.poll(() => dialog.getByText('내보내는 사유를 입력하세요.').isVisible(), WAIT).toBe(true);

    await dialog.getByLabel('내보내는 사유').fill('11월 상담 결과 보고');
    await dialog.locator('label', { hasText: 'CSV' }).click();
    // A password is for XLSX only: its fields leave with the choice of CSV.
    await expect.poll(() => dialog.getByLabel('파일 암호', { exact: true }).count(), WAIT).toBe(0);
    await screenshot(page, 'e2e-database-status-export');

    const [file] = await Promise.all([page.waitForEvent('download', WAIT), dialog.getByRole('button', { name: '내보내기' }).click()]);
    expect(file.suggestedFilename()).toMatch(/^DB_.+_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
    const saved = await file.path();
    const text = fs.readFileSync(saved, 'utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const [header, first] = text.slice(1).split('\r\n');
    expect(header!.split(',').slice(0, 8)).toEqual(['접수일시', '업체', '랜딩', '실험안', '매체', '이름', '연락처', '상태']);
    // The first lead's row starts with when it came in (Seoul wall time), a day of the period on screen.
    const receivedAt = first?.slice(0, 19) ?? '';
    expect(receivedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const day = receivedAt.slice(0, 10);
    expect(day >= addDays(today, -29) && day <= today, `${day} in ${addDays(today, -29)}..${today}`).toBe(true);

    await expect.poll(() => page.getByText(/건을 DB_.+\.csv 파일로 내보냈습니다/).isVisible(), WAIT).toBe(true);
    expect(await dialog.isVisible()).toBe(false);
  });
});
