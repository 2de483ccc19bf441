// DB 등록's import under a full file: 50,000 rows (Korean names, valid phones, about 1% bad
// rows) built in memory, uploaded over HTTP as the screen does, started, and followed until
// done. Goal: the whole import (upload, check, write) within 20 s. A benchmark step calls
// benchImport() with a logged-in session of an account that may write DB 등록 in the shop.
//
//   npx tsx scripts/bench-import.ts http://127.0.0.1:3000 <loginId> <password> <shopId> [rows]
import { pathToFileURL } from 'node:url';
import { pathOf } from '../contracts/endpoint.ts';
import { dataInsertionApi, type ImportDetail } from '../contracts/data-insertion.ts';

const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황'];
const GIVEN = ['민준', '서연', '도윤', '지우', '하준', '서윤', '은우', '지민', '예준', '하은', '시우', '수아', '지호', '민서', '유준', '채원'];
const AREAS = ['서울', '경기', '인천', '부산', '대구', '광주'];

/** A CSV of `rows` leads (UTF-8 with BOM, as Excel saves it); every 100th row is bad (no name, or a broken phone). */
export function importCsv(rows: number): { csv: string; bad: number } {
  const lines = ['이름,연락처,메모,지역'];
  let bad = 0;
  for (let i = 0; i < rows; i++) {
    const name = `${FAMILY[i % FAMILY.length]}${GIVEN[Math.floor(i / FAMILY.length) % GIVEN.length]}`;
    // Distinct numbers, so that none is a duplicate of another in the file.
    const phone = `010-${String(7000 + Math.floor(i / 10_000)).padStart(4, '0')}-${String(i % 10_000).padStart(4, '0')}`;
    if (i % 100 === 99) {
      bad++;
      lines.push(i % 200 === 199 ? `,${phone},이름 없음,서울` : `${name},010-12,번호 오류,서울`);
    } else lines.push(`${name},${phone},벤치마크 ${i},${AREAS[i % AREAS.length]}`);
  }
  return { csv: `\ufeff${lines.join('\r\n')}\r\n`, bad };
}

export async function benchImport(base: string, cookie: string, shopId: number, rows = 50_000): Promise<{ ms: number; imported: number; failed: number }> {
  const { csv } = importCsv(rows);
  // The server refuses writes from another origin: name ours.
  const headers = { cookie, origin: base };
  const url = (path: string, params: Record<string, unknown>) => `${base}${pathOf(path, params)}`;
  const started = Date.now();

  const form = new FormData();
  // A string part is sent as UTF-8.
  form.append('file', new Blob([csv], { type: 'text/csv' }), `bench-${rows}.csv`);
  const up = await fetch(url(dataInsertionApi.upload.path, { shopId }), { method: 'POST', headers, body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const uploaded = (await up.json()) as ImportDetail;

  const start = await fetch(url(dataInsertionApi.start.path, { shopId, id: uploaded.id }), {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ mapping: uploaded.suggested, consentBasis: 'written', consentNote: 'benchmark' }),
  });
  if (start.status !== 202) throw new Error(`start: ${start.status} ${await start.text()}`);

  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const res = await fetch(url(dataInsertionApi.get.path, { shopId, id: uploaded.id }), { headers });
    if (res.status !== 200) throw new Error(`progress: ${res.status} ${await res.text()}`);
    const d = (await res.json()) as ImportDetail;
    if (d.status === 'failed') throw new Error(`import failed: ${d.error}`);
    if (d.status === 'done') return { ms: Date.now() - started, imported: d.imported, failed: d.failed };
  }
}

async function main() {
  const [base, loginId, password, shop, rows] = process.argv.slice(2);
  if (!base || !loginId || !password || !shop) {
    console.error('usage: npx tsx scripts/bench-import.ts <base URL> <loginId> <password> <shopId> [rows]');
    process.exit(2);
  }
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ loginId, password }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]!).find((c) => c.startsWith('lr_session='))!;
  const r = await benchImport(base, cookie, Number(shop), rows ? Number(rows) : undefined);
  console.log(`import of ${rows ?? 50_000} rows: ${(r.ms / 1000).toFixed(1)} s — ${r.imported} imported, ${r.failed} refused (goal ≤ 20 s)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
