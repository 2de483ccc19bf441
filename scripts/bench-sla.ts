// The SLA scan of npm run bench:leads: speed to lead's escalation job looking for due leads
// (server/modules/leads/sla.ts dueLeads — per shop with the SLA on, its new arrivals still waiting
// without a state row and its running clocks, over the job's 14-day window) among the bulk seed's
// leads, in process on the bench's database handle, as the worker runs it every 5 s: the shops with
// the SLA on read, then each shop's scan in turn. Every bulk shop gets the SLA on (30 minutes, a
// calendar of every hour of every day, so the figures do not depend on the time of day the bench
// runs), turned on 30 days ago. Two states are measured:
//   - the first pass after turning it on: nothing escalated yet, every waiting lead of the window is
//     a candidate (each shop's scan stops at the job's 1,000);
//   - the steady state of a job that has kept up: waiting leads older than two hours were escalated
//     to the manager's queue (a state row each, as the job writes), those between one and two hours
//     old were re-routed once (a running clock restarted 30 minutes after arrival), the last hour's
//     have no state row yet — the share waiting is the seed's own (recent leads half 미처리).
// What it writes (the settings, the state rows) is taken away afterwards.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import { dueLeads, ruleOf, type Rule } from '../server/modules/leads/sla.ts';
import { slaRepository } from '../server/modules/leads/sla.repository.ts';

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The job's window (sla.ts WINDOW_MS). */
const WINDOW_MS = 14 * DAY_MS;
const BENCH_ACTION = 'bench-sla';

export interface SlaScan {
  /** The shops' rules, as the job reads them. */
  rules(): Promise<Rule[]>;
  /** One pass of the job's search over every shop with the SLA on: how many leads it found due. */
  pass(now: Date): Promise<number>;
  /** Escalation's steady state written (see above): the state rows made. */
  steady(now: Date): Promise<{ manager: number; running: number; waiting: number; windowLeads: number }>;
  undo(): Promise<void>;
}

export async function slaScan(db: Kysely<Database>, engine: 'sqlite' | 'postgres', shopIds: number[], now: Date): Promise<SlaScan> {
  const at = now.toISOString();
  const enabledAt = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const undo = async () => {
    await db.deleteFrom('lead_sla_state').where('last_action', '=', BENCH_ACTION).execute();
    await db.deleteFrom('lead_sla_settings').where('shop_id', 'in', shopIds).execute();
  };
  await undo();
  for (const shopId of shopIds) {
    await slaRepository(db).saveSettings({
      shop_id: shopId, enabled: 1, enabled_at: enabledAt, minutes: 30, remind_percent: 80, on_deadline: 'both', max_reroutes: 2,
      work_days: '[1,2,3,4,5,6,7]', work_start: '00:00', work_end: '24:00', holidays: '[]', updated_by: null, updated_at: at,
    });
  }
  const rules = async () => (await slaRepository(db).enabledShops()).map(ruleOf);
  return {
    rules,
    async pass(t: Date) {
      let due = 0;
      for (const rule of await rules()) due += (await dueLeads(db, rule, t)).ids.length;
      return due;
    },
    async steady(t: Date) {
      const windowFrom = new Date(t.getTime() - WINDOW_MS).toISOString();
      const waiting = db.selectFrom('leads').where('shop_id', 'in', shopIds).where('created_at', '>=', windowFrom)
        .where('deleted_at', 'is', null).where('duplicate_of', 'is', null).where('first_contact_at', 'is', null);
      const rows = await waiting.select(['id', 'shop_id', 'created_at']).execute();
      const windowLeads = Number((await db.selectFrom('leads').select((eb) => eb.fn.countAll<number>().as('n')).where('shop_id', 'in', shopIds).where('created_at', '>=', windowFrom).executeTakeFirstOrThrow()).n);
      const twoHours = new Date(t.getTime() - 2 * HOUR_MS).toISOString();
      const oneHour = new Date(t.getTime() - HOUR_MS).toISOString();
      let manager = 0;
      let running = 0;
      const states = rows.filter((r) => r.created_at < oneHour).map((r) => {
        const old = r.created_at < twoHours;
        if (old) manager++;
        else running++;
        return {
          lead_id: r.id, shop_id: r.shop_id, clock_from: old ? r.created_at : new Date(Date.parse(r.created_at) + 30 * 60_000).toISOString(), reminded_at: null,
          reroutes: old ? 2 : 1, lapsed_by: '[]', stage: old ? 'manager' : 'running', last_action: BENCH_ACTION, version: 1, updated_at: at,
        } as const;
      });
      for (let i = 0; i < states.length; i += 500) await db.insertInto('lead_sla_state').values(states.slice(i, i + 500)).execute();
      // As autovacuum (PostgreSQL: statistics and the visibility map index-only scans need) or ANALYZE (SQLite) would have by now on a live database.
      await (engine === 'postgres' ? sql`vacuum (analyze) lead_sla_state` : sql`analyze lead_sla_state`).execute(db);
      return { manager, running, waiting: rows.length, windowLeads };
    },
    undo,
  };
}
