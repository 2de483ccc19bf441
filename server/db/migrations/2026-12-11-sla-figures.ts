// Frozen: speed to lead's escalation scan (sla.repository.ts arrivals) reads, every 5 s and per
// shop with the SLA on, its arrivals of the last 14 days still waiting — not contacted, not
// deleted, not a duplicate — and probes each in lead_sla_state. On leads_shop_created_cover_idx it
// walked every lead of the window to keep the waiting ones (about a quarter of the bulk seed's
// recent leads); leads_sla_waiting_idx holds only those — an entry made at intake (a new lead
// waits) and dropped at its first contact — in (created_at, id) order, the scan's own. Measured by
// npm run bench:leads -- --only-figures=sla on the million-lead bulk seed (SQLite, the 20 shops'
// arrivals queries together, steady state): 22–38 ms without it, 9–15 ms with it.
// Never edit; add a new dated migration instead.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('leads_sla_waiting_idx')
    .on('leads')
    .columns(['shop_id', 'created_at'])
    .where(sql<boolean>`first_contact_at is null and deleted_at is null and duplicate_of is null`)
    .execute();
}
