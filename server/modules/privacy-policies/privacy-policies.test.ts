import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { landingInput, landingTestApp, leadBody, openLanding, policyInput, submit, type LandingTestApp } from '../../test-landings.ts';

let t: LandingTestApp;
beforeEach(async () => {
  t = await landingTestApp();
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/privacy-policies`;

describe('privacy policies', () => {
  it('keeps versions: one draft at a time, published versions frozen, the latest published current', async () => {
    const list = (await t.admin.get(base())).json();
    expect(list.items).toEqual([expect.objectContaining({ version: 1, status: 'published', current: true })]);
    const v1 = list.items[0].id;
    expect((await t.admin.put(`${base()}/${v1}`, policyInput())).statusCode).toBe(409);
    expect((await t.admin.del(`${base()}/${v1}`)).statusCode).toBe(409);

    const draft = await t.admin.post(base(), policyInput({ retentionDays: 365, thirdParties: [{ recipient: '한빛콜센터', purpose: '상담 연결', items: '이름, 연락처', period: '1년' }] }));
    expect(draft.statusCode).toBe(201);
    expect(draft.json()).toMatchObject({ version: 2, status: 'draft', current: false });
    expect((await t.admin.post(base(), policyInput())).statusCode).toBe(409);
    const edited = await t.admin.put(`${base()}/${draft.json().id}`, policyInput({ retentionDays: 730 }));
    expect(edited.json().retentionDays).toBe(730);
    const bad = await t.admin.post(`${base()}`, { purpose: '', retentionDays: 0 });
    expect(Object.keys(bad.json().error.fields)).toEqual(expect.arrayContaining(['purpose', 'items', 'retentionDays']));

    const published = await t.admin.post(`${base()}/${draft.json().id}/publish`);
    expect(published.json()).toMatchObject({ status: 'published', current: true, publishedAt: t.clock.current.toISOString() });
    const after = (await t.admin.get(base())).json().items;
    expect(after.map((p: { version: number; current: boolean }) => [p.version, p.current])).toEqual([[2, true], [1, false]]);
    expect((await t.admin.get(`${base()}/options`)).json().items).toHaveLength(2);
  });

  it('lists versions a page at a time on the server, sorted and filtered, each page naming the current version and the draft', async () => {
    for (let i = 0; i < 2; i++) {
      const d = (await t.admin.post(base(), policyInput({ retentionDays: 100 + i }))).json();
      await t.admin.post(`${base()}/${d.id}/publish`);
    }
    const draft = (await t.admin.post(base(), policyInput({ retentionDays: 400 }))).json();

    const first = (await t.admin.get(`${base()}?pageSize=2`)).json();
    expect(first.total).toBe(4);
    expect(first.items.map((p: { version: number }) => p.version)).toEqual([4, 3]);
    expect(first.current).toMatchObject({ version: 3, current: true });
    expect(first.draft).toMatchObject({ id: draft.id, version: 4, status: 'draft' });
    const second = (await t.admin.get(`${base()}?pageSize=2&page=2`)).json();
    expect(second.items.map((p: { version: number }) => p.version)).toEqual([2, 1]);
    expect(second.current.version).toBe(3);

    const oldestFirst = (await t.admin.get(`${base()}?sort=version`)).json();
    expect(oldestFirst.items.map((p: { version: number }) => p.version)).toEqual([1, 2, 3, 4]);
    const published = (await t.admin.get(`${base()}?status=published`)).json();
    expect(published).toMatchObject({ total: 3 });
    expect((await t.admin.get(`${base()}?sort=retentionDays`)).statusCode).toBe(400);
  });

  it('applies a newly published version to new submissions and the privacy page, except on landings pinned to a version', async () => {
    const v1 = (await t.admin.get(base())).json().items[0].id;
    const following = await openLanding(t);
    const pinned = await openLanding(t, { landingCode: 'pinned', privacyPolicyVersionId: v1 });
    const draft = (await t.admin.post(base(), policyInput({ retentionDays: 90, thirdParties: [{ recipient: '한빛콜센터', purpose: '상담 연결', items: '이름, 연락처', period: '90일' }] }))).json();
    await t.admin.post(`${base()}/${draft.id}/publish`);

    await submit(t, leadBody(t, following, { phone: '01011112222' }));
    await submit(t, { ...leadBody(t, pinned, { phone: '01033334444' }), landingCode: 'pinned' });
    const leads = await t.app.db.selectFrom('leads').select(['landing_id', 'privacy_policy_id']).orderBy('id').execute();
    expect(leads).toEqual([{ landing_id: following, privacy_policy_id: draft.id }, { landing_id: pinned, privacy_policy_id: v1 }]);

    const page = (await t.app.inject({ method: 'GET', url: '/view/smile/implant/privacy' })).body;
    expect(page).toContain('버전 2');
    expect(page).toContain('90일 동안');
    expect(page).toContain('<td>한빛콜센터</td>');
    expect(page).toContain('<td>미소치과의원</td>');
    expect((await t.app.inject({ method: 'GET', url: '/view/smile/pinned/privacy' })).body).toContain('버전 1');
  });

  it('lets the landing editor list published versions, and refuses a draft as a landing’s pinned policy', async () => {
    const draft = (await t.admin.post(base(), policyInput())).json();
    const res = await t.admin.post(`/api/shops/${t.shopId}/landings`, landingInput({ privacyPolicyVersionId: draft.id }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('privacyPolicyVersionId');
  });
});
