// Which live landings no contract covers: their valid leads are 계약 외 and bill nothing. The
// rule is contractGap (contracts/money.ts); this reads the contracts and landings it needs, for
// the landing editor's publish, 계약 현황 and both dashboards.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { contractGap, effectiveEnd, type CoverageContract } from '../../contracts/money.ts';
import { seoulDay } from '../../contracts/kst.ts';

/** The shops' contracts not ended before `today` (stopped ones too: they explain a gap), by shop. */
export async function coverageContracts(db: Kysely<Database>, shopIds: readonly number[], today: string): Promise<Map<number, CoverageContract[]>> {
  const out = new Map<number, CoverageContract[]>();
  if (!shopIds.length) return out;
  const contracts = await db
    .selectFrom('shop_contracts')
    .select(['id', 'shop_id', 'name', 'starts_on', 'ends_on', 'stopped_at'])
    .where('shop_id', 'in', [...shopIds])
    .where('ends_on', '>=', today)
    .orderBy('starts_on')
    .orderBy('id')
    .execute();
  if (!contracts.length) return out;
  const ids = contracts.map((c) => c.id);
  const [landings, media] = await Promise.all([
    db.selectFrom('shop_contract_landings').select(['contract_id', 'landing_id']).where('contract_id', 'in', ids).execute(),
    db
      .selectFrom('shop_contract_media as m')
      .innerJoin('code_items as c', 'c.id', 'm.media_type_id')
      .select(['m.contract_id', 'm.media_type_id', 'c.name'])
      .where('m.contract_id', 'in', ids)
      .execute(),
  ]);
  for (const c of contracts) {
    const stoppedOn = c.stopped_at ? seoulDay(c.stopped_at) : null;
    const list = out.get(c.shop_id) ?? [];
    list.push({
      name: c.name, startsOn: c.starts_on, lastDay: effectiveEnd({ endsOn: c.ends_on, stoppedOn }), stopped: !!c.stopped_at,
      landingIds: landings.filter((l) => l.contract_id === c.id).map((l) => l.landing_id),
      media: media.filter((m) => m.contract_id === c.id).map((m) => ({ id: m.media_type_id, name: m.name })),
    });
    out.set(c.shop_id, list);
  }
  return out;
}

interface UncoveredLanding {
  shopId: number;
  landingId: number;
  title: string;
  reasons: string[];
}

/** The shops' open landings no contract covers today, with why, by shop and title. */
export async function uncoveredLandings(db: Kysely<Database>, shopIds: readonly number[], today: string): Promise<UncoveredLanding[]> {
  if (!shopIds.length) return [];
  const [landings, contracts] = await Promise.all([
    db
      .selectFrom('landings')
      .select(['id', 'shop_id', 'title', 'media_type_id'])
      .where('shop_id', 'in', [...shopIds])
      .where('status', '=', 'open')
      .orderBy('shop_id')
      .orderBy('title')
      .orderBy('id')
      .execute(),
    coverageContracts(db, shopIds, today),
  ]);
  return landings.flatMap((l) => {
    const reasons = contractGap({ id: l.id, mediaTypeId: l.media_type_id }, contracts.get(l.shop_id) ?? [], today);
    return reasons.length ? [{ shopId: l.shop_id, landingId: l.id, title: l.title, reasons }] : [];
  });
}
