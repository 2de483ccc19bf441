import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, landingTestApp, type LandingTestApp } from '../../test-landings.ts';
import { CONTRACT_GAP_TITLE, contractGap } from '../../../contracts/money.ts';

let t: LandingTestApp;
let meta: number;

beforeEach(async () => {
  t = await landingTestApp({ sessionIdleMinutes: 1_000_000, sessionAbsoluteHours: 100_000 });
  t.clock.current = new Date('2026-11-21T01:00:00.000Z');
  meta = (await t.admin.post('/api/codes/media-type', { name: '메타', code: 'meta', sortOrder: 1 })).json().id as number;
});
afterEach(async () => {
  await t.close();
});

const landings = () => `/api/shops/${t.shopId}/landings`;
async function landing(code: string, title: string, mediaTypeId: number | null = null): Promise<number> {
  const res = await t.admin.post(landings(), landingInput({ landingCode: code, title, mediaTypeId }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
async function publish(id: number) {
  const res = await t.admin.post(`${landings()}/${id}/publish`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { contractGap: string[] };
}
async function contract(extra: Record<string, unknown>) {
  const res = await t.admin.post(`/api/shops/${t.shopId}/contracts`, {
    name: '11월 임플란트', startsOn: '2026-11-01', endsOn: '2026-11-30', quantity: 100, unitPrice: 30_000, dailyCap: null,
    landingIds: [], mediaTypeIds: [], returnWindowDays: 7, maxReturnRate: 10, autoClose: false, memo: '', ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}
const status = async () => (await t.admin.get(`/api/shops/${t.shopId}/contracts/status`)).json();
const shopDashboard = async () => (await t.admin.get(`/api/shops/${t.shopId}/dashboard`)).json();
const dashboard = async () => (await t.admin.get('/api/dashboard')).json();

describe('a live landing no contract covers', () => {
  it('is named with why at publish, on 계약 현황 and on both dashboards, until a contract covers it', async () => {
    const implant = await landing('implant', '임플란트 상담 이벤트', meta);
    const checkup = await landing('checkup', '건강검진 이벤트');
    await contract({ landingIds: [implant] });
    await contract({ name: '12월 메타', startsOn: '2026-12-01', endsOn: '2026-12-31', landingIds: [checkup], mediaTypeIds: [meta] });

    expect((await publish(implant)).contractGap).toEqual([]);
    // Published: the answer says why its leads bill nothing.
    expect((await publish(checkup)).contractGap).toEqual([
      "'11월 임플란트' 계약은 다른 랜딩만 셉니다.",
      "'12월 메타' 계약은 매체 메타만 셉니다 (이 랜딩은 매체가 없습니다).",
    ]);
    const gap = { landingId: checkup, title: '건강검진 이벤트', reasons: expect.arrayContaining(["'11월 임플란트' 계약은 다른 랜딩만 셉니다."]) };
    expect((await status()).uncoveredLandings).toEqual([gap]);
    expect((await shopDashboard()).contracts.uncoveredLandings).toEqual([gap]);
    expect((await dashboard()).contracts.uncoveredLandings).toEqual([{ ...gap, shopId: t.shopId, shopName: '미소치과' }]);

    // A contract over every landing and medium covers it: nothing to warn about.
    await contract({ name: '11월 검진', landingIds: [checkup] });
    expect((await status()).uncoveredLandings).toEqual([]);
    expect((await shopDashboard()).contracts.uncoveredLandings).toEqual([]);
    expect((await dashboard()).contracts.uncoveredLandings).toEqual([]);
    expect(CONTRACT_GAP_TITLE).toContain('청구되지 않습니다');
  });

  it('tells a shop without a running contract, a contract not yet started and a stopped one apart', () => {
    const c = { landingIds: [], media: [] };
    expect(contractGap({ id: 1, mediaTypeId: null }, [], '2026-11-21')).toEqual(['진행 중인 계약이 없습니다.']);
    expect(contractGap({ id: 1, mediaTypeId: null }, [{ ...c, name: '10월', startsOn: '2026-10-01', lastDay: '2026-10-31', stopped: false }], '2026-11-21')).toEqual(['진행 중인 계약이 없습니다.']);
    expect(contractGap({ id: 1, mediaTypeId: null }, [{ ...c, name: '12월', startsOn: '2026-12-01', lastDay: '2026-12-31', stopped: false }], '2026-11-21')).toEqual(["'12월' 계약은 2026-12-01에 시작합니다."]);
    expect(contractGap({ id: 1, mediaTypeId: null }, [{ ...c, name: '11월', startsOn: '2026-11-01', lastDay: '2026-11-10', stopped: true }], '2026-11-21')).toEqual(["'11월' 계약은 중지되었습니다."]);
    expect(contractGap({ id: 1, mediaTypeId: null }, [{ ...c, name: '11월', startsOn: '2026-11-01', lastDay: '2026-11-30', stopped: false }], '2026-11-21')).toEqual([]);
  });
});
