import { CompiledQuery, sql, type DatabaseConnection, type Insertable, type Kysely, type QueryResult } from 'kysely';
import type { Database, LeadsTable } from '../../db/schema.ts';
import { effectivePolicyId } from '../../db/landing-sql.ts';
import { countDenyHits, loadDenyRules, matchDenyRule } from '../../lib/deny-check.ts';
import { lockKeys } from '../../db/dialect-sql.ts';

export type NewLead = Omit<Insertable<LeadsTable>, 'duplicate_of' | 'created_at' | 'updated_at'>;

/** A submission that passed validation; deny rules and duplicates are decided in the batch. */
export interface PendingLead {
  kind: 'lead';
  lead: NewLead;
  duplicateWindowDays: number;
  /** Text keyword rules look at (name, answers). */
  text: string;
}

/** A submission refused before the database (honeypot, too fast): recorded, not silently dropped. */
export interface PendingBlock {
  kind: 'block';
  row: { shop_id: number; landing_id: number; reason: 'honeypot' | 'too-fast'; ip: string | null; phone: string | null; name: string | null; user_agent: string | null; detail: string | null };
}

export type Outcome = { status: 'created'; leadId: number; duplicateOf: number | null } | { status: 'denied'; ruleId: number } | { status: 'blocked' };

const LEAD_COLUMNS = [
  'shop_id', 'landing_id', 'source', 'name', 'phone', 'answers', 'privacy_consent', 'marketing_consent', 'sensitive_consent', 'privacy_policy_id',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term', 'media_type_id', 'referrer', 'ip', 'user_agent',
  'cs_status', 'duplicate_of', 'created_at', 'updated_at',
] as const satisfies ReadonlyArray<keyof LeadsTable>;
type LeadValues = { [K in (typeof LEAD_COLUMNS)[number]]: unknown };

const DAY_MS = 86_400_000;
const CHUNK = 100;

export function intakeRepository(db: Kysely<Database>) {
  // The lead insert is compiled once; each lead only binds its values.
  const insertLead = db
    .insertInto('leads')
    .values(Object.fromEntries(LEAD_COLUMNS.map((c) => [c, null])) as never)
    .returning('id')
    .compile().sql;

  // The batch's per-item statements are compiled once (Kysely builds SQL per call otherwise,
  // which costs more than SQLite running them).
  const earliestLead = db
    .selectFrom('leads')
    .select('id')
    .where('shop_id', '=', 0)
    .where('phone', '=', '')
    .where('created_at', '>=', '')
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .compile().sql;
  const EVENT_COLUMNS = ['lead_id', 'account_id', 'action', 'before', 'after', 'ip', 'at'] as const;
  const insertEvent = db
    .insertInto('lead_events')
    .values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, null])) as never)
    .compile().sql;

  /** Runs compiled SQL on the transaction's connection (no query-executor round per statement). */
  type Run = <R>(text: string, params: unknown[]) => Promise<QueryResult<R>>;
  const runner = (conn: DatabaseConnection): Run => (text, params) => conn.executeQuery(CompiledQuery.raw(text, params));

  async function insertLeadRow(run: Run, values: LeadValues): Promise<number> {
    const { rows } = await run<{ id: number }>(insertLead, LEAD_COLUMNS.map((c) => values[c]));
    return Number(rows[0]!.id);
  }

  /**
   * The earliest live lead per shop and phone inside each window the batch uses: one indexed
   * lookup (shop_id, phone, created_at) per distinct pair, so a phone already submitted a
   * thousand times still costs one index probe, never a scan of its rows.
   */
  async function originals(run: Run, leads: PendingLead[], now: Date) {
    const found = new Map<string, number>(); // `${days}|${shop}|${phone}` → lead id
    const seen = new Set<string>();
    for (const l of leads) {
      const days = l.duplicateWindowDays;
      const key = `${days}|${l.lead.shop_id}|${l.lead.phone}`;
      if (days <= 0 || seen.has(key)) continue;
      seen.add(key);
      const since = new Date(now.getTime() - days * DAY_MS).toISOString();
      // Parameters in the compiled order: shop, phone, since, limit.
      const { rows } = await run<{ id: number }>(earliestLead, [l.lead.shop_id, l.lead.phone, since, 1]);
      if (rows[0]) found.set(key, Number(rows[0].id));
    }
    return found;
  }


  return {
    /** The landing a form posts to, with what intake needs, by its public codes. */
    definition: (shopCode: string, landingCode: string) =>
      db
        .selectFrom('landings as l')
        .innerJoin('shops as s', 's.id', 'l.shop_id')
        .select([
          'l.id', 'l.shop_id', 's.shop_code', 'l.landing_code', 'l.title', 'l.status', 'l.open_at', 'l.close_at', 's.status as shop_status',
          'l.content', 'l.form_fields', 'l.thank_you_message', 'l.thank_you_url', 'l.duplicate_window_days', 'l.media_type_id',
          'l.tracking_tags', 'l.head_script', 'l.conversion_script', effectivePolicyId.as('policy_id'),
        ])
        .where('s.shop_code', '=', shopCode)
        .where('l.landing_code', '=', landingCode)
        .executeTakeFirst(),

    /**
     * One transaction for a batch of submissions: deny rules (hits counted, blocked ones
     * logged), duplicate flags, the leads and their `created` access-record events.
     */
    commitBatch(items: Array<PendingLead | PendingBlock>, now: Date): Promise<Outcome[]> {
      return db.transaction().execute(async (trx) => {
        const nowIso = now.toISOString();
        const outcomes: Outcome[] = new Array(items.length);
        const blocked: Array<Insertable<Database['blocked_submissions']>> = [];
        const hits = new Map<number, number>();
        const accepted: Array<{ index: number; item: PendingLead }> = [];

        const leads = items.filter((i): i is PendingLead => i.kind === 'lead');
        const rules = leads.length ? await loadDenyRules(trx, 'intake', now) : [];
        items.forEach((item, index) => {
          if (item.kind === 'block') {
            blocked.push({ ...item.row, deny_rule_id: null, at: nowIso });
            outcomes[index] = { status: 'blocked' };
            return;
          }
          const l = item.lead;
          const rule = rules.length ? matchDenyRule(rules, { ip: l.ip ?? undefined, phone: l.phone, text: item.text }) : undefined;
          if (!rule) return accepted.push({ index, item });
          hits.set(rule.id, (hits.get(rule.id) ?? 0) + 1);
          blocked.push({
            shop_id: l.shop_id, landing_id: l.landing_id ?? null, reason: 'deny-rule', deny_rule_id: rule.id, ip: l.ip ?? null,
            phone: l.phone, name: l.name, user_agent: l.user_agent ?? null, detail: JSON.stringify({ kind: rule.kind, value: rule.value }), at: nowIso,
          });
          outcomes[index] = { status: 'denied', ruleId: rule.id };
        });

        // Another process may be committing the same phone for the same shop right now: a lock
        // per shop and phone, held to the commit, makes the later one wait and then see the earlier one.
        await lockKeys(trx, accepted.filter((a) => a.item.duplicateWindowDays > 0).map((a) => `lead-phone:${a.item.lead.shop_id}:${a.item.lead.phone}`));
        // The per-lead statements run straight on the transaction's connection.
        await trx.getExecutor().provideConnection(async (conn) => {
          const run = runner(conn);
          const earlier = await originals(run, accepted.map((a) => a.item), now);
          const windows = [...new Set(accepted.map((a) => a.item.duplicateWindowDays).filter((d) => d > 0))];
          const events: Array<{ lead_id: number; account_id: null; action: string; before: null; after: string; ip: string | null; at: string }> = [];
          for (const { index, item } of accepted) {
            // Leads of this batch are inserted in order, so an earlier one in the batch counts too.
            const key = `${item.duplicateWindowDays}|${item.lead.shop_id}|${item.lead.phone}`;
            const duplicateOf = item.duplicateWindowDays > 0 ? (earlier.get(key) ?? null) : null;
            const id = await insertLeadRow(run, {
              ...item.lead, cs_status: duplicateOf ? '중복' : '미처리', duplicate_of: duplicateOf, created_at: nowIso, updated_at: nowIso,
            } as LeadValues);
            for (const days of windows) {
              const k = `${days}|${item.lead.shop_id}|${item.lead.phone}`;
              if (!earlier.has(k)) earlier.set(k, id);
            }
            events.push({
              lead_id: id, account_id: null, action: 'created', before: null, ip: item.lead.ip ?? null, at: nowIso,
              after: JSON.stringify({ source: item.lead.source, landingId: item.lead.landing_id, ...(duplicateOf ? { duplicateOf } : {}) }),
            });
            outcomes[index] = { status: 'created', leadId: id, duplicateOf };
          }
          for (const e of events) await run(insertEvent, EVENT_COLUMNS.map((c) => e[c]));
        });
        for (let i = 0; i < blocked.length; i += CHUNK) await trx.insertInto('blocked_submissions').values(blocked.slice(i, i + CHUNK)).execute();
        for (const [ruleId, n] of hits) await countDenyHits(trx, ruleId, n, now);
        return outcomes;
      });
    },

    /** Adds counted visits (landing, Seoul day, source). */
    async addVisits(rows: Array<{ landing_id: number; day: string; source: string; count: number }>) {
      for (let i = 0; i < rows.length; i += CHUNK) {
        await db
          .insertInto('visits')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['landing_id', 'day', 'source']).doUpdateSet({ count: sql<number>`visits.count + excluded.count` }))
          .execute();
      }
    },
  };
}

export type LandingDefinitionRow = NonNullable<Awaited<ReturnType<ReturnType<typeof intakeRepository>['definition']>>>;
