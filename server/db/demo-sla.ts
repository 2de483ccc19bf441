// Demo speed to lead: both demo shops keep a first-contact promise (응답 SLA) turned on 40 days
// ago, with the escalation history the job would have left on the demo leads — so 업체 대시보드,
// 상담 통계 and the administrators' ranking show real figures to a newcomer. Contacted leads that
// waited long were re-routed once before they were reached (the holder who let the deadline pass
// → the counselor who called); leads never contacted and days old went to the manager's queue
// (미배분) after the manager was notified. Newer waiting leads are left to the running job.
// Written straight to the tables like the rest of the demo: histories with past times.
import type { Insertable, Kysely } from 'kysely';
import type { Database, LeadEventsTable } from './schema.ts';
import { random } from './demo-leads.ts';

const DAY_MS = 86_400_000;
const SHOPS = [
  { code: 'smile-dental', minutes: 30, days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' },
  { code: 'hanbit-insurance', minutes: 15, days: [1, 2, 3, 4, 5], start: '09:00', end: '18:00' },
] as const;

export async function seedDemoSla(db: Kysely<Database>, now = new Date()): Promise<void> {
  const enabledAt = new Date(now.getTime() - 40 * DAY_MS).toISOString();
  const rnd = random(20261211);
  for (const s of SHOPS) {
    const shop = await db.selectFrom('shops').select('id').where('shop_code', '=', s.code).executeTakeFirst();
    if (!shop) continue;
    await db.insertInto('lead_sla_settings').values({
      shop_id: shop.id, enabled: 1, enabled_at: enabledAt, minutes: s.minutes, remind_percent: 80, on_deadline: 'both', max_reroutes: 1,
      work_days: JSON.stringify(s.days), work_start: s.start, work_end: s.end, holidays: '[]', updated_by: null, updated_at: enabledAt,
    }).execute();
    const leads = await db.selectFrom('leads as l').leftJoin('accounts as a', 'a.id', 'l.assignee_id')
      .select(['l.id', 'l.created_at', 'l.first_contact_at', 'l.assignee_id', 'a.name as assignee_name'])
      .where('l.shop_id', '=', shop.id).where('l.created_at', '>=', enabledAt).where('l.duplicate_of', 'is', null).where('l.deleted_at', 'is', null)
      .orderBy('l.id').execute();
    const holders = [...new Map(leads.filter((l) => l.assignee_id !== null).map((l) => [l.assignee_id!, l.assignee_name!])).entries()];
    const events: Array<Insertable<LeadEventsTable>> = [];
    const event = (l: (typeof leads)[number], action: string, at: number, before: unknown, after: Record<string, unknown>) =>
      events.push({ lead_id: l.id, shop_id: shop.id, account_id: null, ip: null, action, at: new Date(at).toISOString(), before: before === null ? null : JSON.stringify(before), after: JSON.stringify({ minutes: s.minutes, ...after }) });
    for (const l of leads) {
      const arrived = Date.parse(l.created_at);
      if (l.first_contact_at && l.assignee_id !== null && holders.length > 1 && Date.parse(l.first_contact_at) - arrived >= 150 * 60_000 && rnd.next() < 0.6) {
        // Reached late, by the counselor the lead was re-routed to.
        const [fromId, fromName] = holders.find(([id]) => id !== l.assignee_id)!;
        const at = Date.parse(l.first_contact_at) - rnd.int(10, 40) * 60_000;
        event(l, 'sla-notify', at, null, { assigneeId: fromId, assigneeName: fromName, reason: 'deadline' });
        event(l, 'sla-reroute', at, { assigneeId: fromId, assigneeName: fromName }, { assigneeId: l.assignee_id, assigneeName: l.assignee_name, reason: 'deadline', reroute: 1, lapsedBy: [fromId] });
        await db.insertInto('lead_sla_state').values({
          lead_id: l.id, shop_id: shop.id, clock_from: new Date(at).toISOString(), reminded_at: null, reroutes: 1, lapsed_by: JSON.stringify([fromId]), stage: 'running',
          last_action: 'sla-reroute', version: 1, updated_at: new Date(at).toISOString(),
        }).execute();
      } else if (!l.first_contact_at && now.getTime() - arrived > 3 * DAY_MS) {
        // Never reached: the manager was told, and the lead waits in the manager's queue.
        const at = arrived + DAY_MS;
        const holder = { assigneeId: l.assignee_id, assigneeName: l.assignee_name };
        const reason = l.assignee_id === null ? 'no-counselor' : 'max-reroutes';
        event(l, 'sla-notify', at, null, { ...holder, reason: 'deadline' });
        event(l, 'sla-manager', at, holder, { assigneeId: null, assigneeName: null, reason, reroutes: reason === 'max-reroutes' ? 1 : 0, lapsedBy: l.assignee_id === null ? [] : [l.assignee_id] });
        await db.updateTable('leads').set({ assignee_id: null, assigned_at: null }).where('id', '=', l.id).execute();
        await db.insertInto('lead_sla_state').values({
          lead_id: l.id, shop_id: shop.id, clock_from: l.created_at, reminded_at: null, reroutes: reason === 'max-reroutes' ? 1 : 0,
          lapsed_by: JSON.stringify(l.assignee_id === null ? [] : [l.assignee_id]), stage: 'manager', last_action: 'sla-manager', version: 1, updated_at: new Date(at).toISOString(),
        }).execute();
      }
    }
    for (let i = 0; i < events.length; i += 200) await db.insertInto('lead_events').values(events.slice(i, i + 200)).execute();
  }
}
