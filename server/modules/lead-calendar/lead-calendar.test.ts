import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { leadBody, openLanding, shopAccount, submit, type LandingTestApp, landingTestApp } from '../../test-landings.ts';
import type { Client } from '../../test-helpers.ts';

let t: LandingTestApp;
let landingId: number;
beforeEach(async () => {
  // Sessions outlive the hours the clock moves through.
  t = await landingTestApp({ sessionIdleMinutes: 100_000, sessionAbsoluteHours: 10_000 });
  landingId = await openLanding(t);
});
afterEach(async () => {
  await t.close();
});

const base = () => `/api/shops/${t.shopId}/calendar`;
const at = (iso: string) => void (t.clock.current = new Date(iso));

/** Submits a lead through the public form at the clock's time and answers its id. */
async function lead(phone: string, name = '홍길동'): Promise<number> {
  const res = await submit(t, leadBody(t, landingId, { phone, name }));
  expect(res.statusCode, res.body).toBe(201);
  return (await t.app.db.selectFrom('leads').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
}

const book = async (c: Client, id: number, reservedAt: string, memo?: string) => {
  const res = await c.request('PATCH', `/api/shops/${t.shopId}/leads/${id}`, { csStatus: '상담예약', reservedAt, ...(memo ? { memo } : {}) });
  expect(res.statusCode, res.body).toBe(200);
};
const assign = async (ids: number[], loginId: string) => {
  const account = await t.app.db.selectFrom('accounts').select('id').where('login_id', '=', loginId).executeTakeFirstOrThrow();
  await t.app.db.updateTable('leads').set({ assignee_id: account.id }).where('id', 'in', ids).execute();
};
const dayOf = (month: { days: Array<{ day: string }> }, day: string) => month.days.find((d) => d.day === day);

describe('the month', () => {
  it('counts arrivals and appointments by Seoul day and names the first three appointments of each day', async () => {
    // 10:00 on 21 November in Seoul.
    const a = await lead('010-1000-0001', '김하나');
    at('2026-11-21T14:59:00.000Z'); // 23:59 on the 21st in Seoul
    const b = await lead('010-1000-0002', '이두리');
    at('2026-11-21T15:30:00.000Z'); // 00:30 on the 22nd in Seoul, still the 21st in UTC
    const c = await lead('010-1000-0003', '박세나');
    const dup = await lead('010-1000-0003', '박세나');
    const more = [await lead('010-1000-0004'), await lead('010-1000-0005'), await lead('010-1000-0006'), await lead('010-1000-0007')];

    await book(t.admin, a, '2026-11-25T14:30:00.000Z', '저녁 늦게 통화 원함\n둘째 줄'); // 23:30 on the 25th in Seoul
    await book(t.admin, b, '2026-11-25T15:30:00.000Z'); // 00:30 on the 26th in Seoul, the 25th in UTC
    for (const [n, id] of more.entries()) await book(t.admin, id, `2026-11-27T0${5 - n}:00:00.000Z`);
    await book(t.admin, c, '2026-12-01T01:00:00.000Z'); // next month

    const res = await t.admin.get(`${base()}?month=2026-11`);
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    expect(m.month).toBe('2026-11');
    expect(m.days[0].day).toBe('2026-11-01');
    expect(dayOf(m, '2026-11-21')).toEqual({ day: '2026-11-21', received: 2, appointments: 0 });
    expect(dayOf(m, '2026-11-22')).toEqual({ day: '2026-11-22', received: 6, appointments: 0 });
    expect(dayOf(m, '2026-11-25')).toEqual({ day: '2026-11-25', received: 0, appointments: 1 });
    expect(dayOf(m, '2026-11-26')).toEqual({ day: '2026-11-26', received: 0, appointments: 1 });
    expect(dayOf(m, '2026-11-27')).toMatchObject({ appointments: 4 });
    expect(m.days.reduce((s: number, d: { received: number }) => s + d.received, 0)).toBe(8);

    // By time; the 27th's fourth (the latest) is counted, not named; 1 December is in November's grid.
    expect(m.appointments.map((x: { id: number }) => x.id)).toEqual([a, b, more[3], more[2], more[1], c]);
    expect(m.appointments[0]).toEqual({
      id: a, reservedAt: '2026-11-25T14:30:00.000Z', name: '김하나', phone: '010-****-0001', assigneeName: null, csStatus: '상담예약', memo: '저녁 늦게 통화 원함',
    });
    expect(JSON.stringify(m)).not.toContain('1000-0001');

    const dec = (await t.admin.get(`${base()}?month=2026-12`)).json();
    expect(dayOf(dec, '2026-12-01')).toEqual({ day: '2026-12-01', received: 0, appointments: 1 });
    expect(dec.appointments.map((x: { id: number }) => x.id)).toEqual([c]);
    expect(dup).toBeGreaterThan(c);
  });

  it('covers every day its six-week grid shows, the neighbouring months’ days too', async () => {
    // November 2026 begins on a Sunday: its grid runs from 1 November to 12 December.
    const a = await lead('010-1000-0001', '김하나');
    const b = await lead('010-1000-0002', '이두리');
    await book(t.admin, a, '2026-12-01T01:00:00.000Z'); // 10:00 on 1 December in Seoul
    await book(t.admin, b, '2026-12-12T14:00:00.000Z'); // 23:00 on the 12th, the grid's last day
    at('2026-11-21T02:00:00.000Z');

    const nov = (await t.admin.get(`${base()}?month=2026-11`)).json();
    expect(nov.month).toBe('2026-11');
    expect(nov.days).toHaveLength(42);
    expect(nov.days[0].day).toBe('2026-11-01');
    expect(nov.days.at(-1).day).toBe('2026-12-12');
    expect(dayOf(nov, '2026-12-01')).toEqual({ day: '2026-12-01', received: 0, appointments: 1 });
    expect(dayOf(nov, '2026-12-12')).toEqual({ day: '2026-12-12', received: 0, appointments: 1 });
    expect(nov.appointments.map((x: { id: number }) => x.id)).toEqual([a, b]);

    // December begins on a Tuesday: its grid runs from Sunday 29 November to 9 January; the 21st is not in it.
    const dec = (await t.admin.get(`${base()}?month=2026-12`)).json();
    expect(dec.days).toHaveLength(42);
    expect(dec.days[0].day).toBe('2026-11-29');
    expect(dec.days.at(-1).day).toBe('2027-01-09');
    expect(dayOf(dec, '2026-11-21')).toBeUndefined();
    expect(dec.appointments.map((x: { id: number }) => x.id)).toEqual([a, b]);
  });

  it('is this Seoul month without a month, and refuses a month or day that is not one', async () => {
    at('2026-11-30T15:10:00.000Z'); // 00:10 on 1 December in Seoul
    expect((await t.admin.get(base())).json().month).toBe('2026-12');

    for (const month of ['2026-13', '202611', '2026-1', 'next']) {
      const res = await t.admin.get(`${base()}?month=${month}`);
      expect(res.statusCode, month).toBe(400);
      expect(res.json().error).toMatchObject({ message: '월은 YYYY-MM 형식입니다.', fields: { month: '월은 YYYY-MM 형식입니다.' } });
    }
    const notADay = await t.admin.get(`${base()}/2026-02-30`);
    expect(notADay.statusCode).toBe(400);
    expect(notADay.json().error.message).toBe('없는 날짜입니다.');
    const badDay = await t.admin.get(`${base()}/tomorrow`);
    expect(badDay.statusCode).toBe(400);
    expect(badDay.json().error.message).toBe('날짜는 YYYY-MM-DD 형식입니다.');
  });
});

describe('one day', () => {
  it('lists the day’s appointments by time and its arrivals latest first, with masked phones and counselors', async () => {
    await shopAccount(t, 'csa1', 'counselor');
    const a = await lead('010-2000-0001', '김하나');
    t.clock.advanceMinutes(5);
    const b = await lead('010-2000-0001', '김하나');
    await assign([a], 'csa1');
    at('2026-11-22T02:00:00.000Z');
    await book(t.admin, a, '2026-11-25T14:30:00.000Z', '첫 통화'); // 23:30 on the 25th in Seoul
    const c = await lead('010-2000-0003', '박세나');
    await book(t.admin, c, '2026-11-25T01:00:00.000Z'); // 10:00 on the 25th

    const day = (await t.admin.get(`${base()}/2026-11-21`)).json();
    expect(day).toEqual({
      day: '2026-11-21',
      appointments: [],
      received: [
        { id: b, createdAt: '2026-11-21T01:05:00.000Z', name: '김하나', phone: '010-****-0001', csStatus: '중복', assigneeName: null, landingTitle: '임플란트 상담 이벤트', duplicate: true },
        { id: a, createdAt: '2026-11-21T01:00:00.000Z', name: '김하나', phone: '010-****-0001', csStatus: '상담예약', assigneeName: 'csa1', landingTitle: '임플란트 상담 이벤트', duplicate: false },
      ],
      receivedTotal: 2,
    });
    const booked = (await t.admin.get(`${base()}/2026-11-25`)).json();
    expect(booked.appointments).toEqual([
      { id: c, reservedAt: '2026-11-25T01:00:00.000Z', name: '박세나', phone: '010-****-0003', assigneeName: null, csStatus: '상담예약', memo: null },
      { id: a, reservedAt: '2026-11-25T14:30:00.000Z', name: '김하나', phone: '010-****-0001', assigneeName: 'csa1', csStatus: '상담예약', memo: '첫 통화' },
    ]);
    expect(booked.received).toEqual([]);
    expect((await t.admin.get(`${base()}/2026-11-26`)).json().appointments).toEqual([]);
  });
});

describe('who sees what', () => {
  it('shows a counselor only the leads assigned to them', async () => {
    const mine = await shopAccount(t, 'csa1', 'counselor');
    await shopAccount(t, 'csb2', 'counselor');
    const own = await lead('010-3000-0001');
    const theirs = await lead('010-3000-0002');
    const nobody = await lead('010-3000-0003');
    await assign([own], 'csa1');
    await assign([theirs], 'csb2');
    for (const id of [own, theirs, nobody]) await book(t.admin, id, '2026-11-24T03:00:00.000Z');

    const month = (await mine.get(`${base()}?month=2026-11`)).json();
    expect(dayOf(month, '2026-11-21')).toMatchObject({ received: 1 });
    expect(dayOf(month, '2026-11-24')).toMatchObject({ appointments: 1 });
    expect(month.appointments.map((x: { id: number }) => x.id)).toEqual([own]);
    const day = (await mine.get(`${base()}/2026-11-21`)).json();
    expect(day.received.map((x: { id: number }) => x.id)).toEqual([own]);
    expect(day.receivedTotal).toBe(1);
    expect((await mine.get(`${base()}/2026-11-24`)).json().appointments.map((x: { id: number }) => x.id)).toEqual([own]);

    const all = (await t.admin.get(`${base()}?month=2026-11`)).json();
    expect(dayOf(all, '2026-11-24')).toMatchObject({ appointments: 3 });
  });

  it('refuses another shop', async () => {
    const other = (await t.admin.post('/api/shops', { shopCode: 'other', name: '다른업체' })).json().id;
    const owner = await shopAccount(t, 'owner1', 'shop-owner');
    expect((await owner.get(`${base()}?month=2026-11`)).statusCode).toBe(200);
    expect((await owner.get(`/api/shops/${other}/calendar?month=2026-11`)).statusCode).toBe(403);
    expect((await owner.get(`/api/shops/${other}/calendar/2026-11-21`)).statusCode).toBe(403);
    expect((await t.anonymous.get(`${base()}?month=2026-11`)).statusCode).toBe(401);
  });
});
