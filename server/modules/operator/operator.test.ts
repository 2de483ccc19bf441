import { describe, expect, it } from 'vitest';
import { eachTestApp, createAccount, TEST_PASSWORD, type Client, type TestApp } from '../../test-helpers.ts';

let t: TestApp;
let admin: Client;
eachTestApp((app, client) => {
  t = app;
  admin = client;
});

const OPERATOR = {
  companyName: '(주)리드룸마케팅', representative: '박리드', businessNumber: '214-88-12345', phone: '02-1544-7788',
  address: '서울특별시 마포구 양화로 45', privacyOfficerName: '윤보안', privacyOfficerContact: 'privacy@leadroom.example',
};

describe('the agency’s own details', () => {
  it('are empty at first, then set by a 최고관리자 and recorded', async () => {
    expect((await admin.get('/api/operator')).json()).toEqual({ operator: null, editable: true });
    const res = await admin.put('/api/operator', OPERATOR);
    expect(res.statusCode).toBe(200);
    expect(res.json().operator).toMatchObject({ ...OPERATOR, businessNumber: '2148812345', phone: '0215447788' });
    await admin.put('/api/operator', { ...OPERATOR, representative: '김대표' });
    const audit = await t.app.db.selectFrom('audit_events').select('detail').where('action', '=', 'operator.update').orderBy('id').execute();
    expect(audit).toHaveLength(2);
    expect(JSON.parse(audit[1]!.detail!)).toMatchObject({ before: { representative: '박리드' }, after: { representative: '김대표' } });
  });

  it('say what to enter, and check the business number', async () => {
    const empty = await admin.put('/api/operator', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toMatchObject({ companyName: '상호(회사명)를 입력하세요.', privacyOfficerName: '개인정보 보호책임자를 입력하세요.' });
    const bad = await admin.put('/api/operator', { ...OPERATOR, businessNumber: '1234567890' });
    expect(bad.json().error.fields).toEqual({ businessNumber: '올바른 사업자등록번호가 아닙니다.' });
  });

  it('can be read by another administrator but changed only by a 최고관리자', async () => {
    await createAccount(admin, 'jmgr', '관리자');
    const manager = await t.login('jmgr', TEST_PASSWORD);
    expect((await manager.get('/api/operator')).json()).toMatchObject({ editable: false });
    const res = await manager.put('/api/operator', OPERATOR);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe('운영사 정보는 최고관리자만 바꿀 수 있습니다.');
    await createAccount(admin, 'mkim', '마케터');
    expect((await (await t.login('mkim', TEST_PASSWORD)).get('/api/operator')).statusCode).toBe(403);
  });
});
