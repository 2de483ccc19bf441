import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { landingScriptsRepository } from './landing-scripts.repository.ts';
import { notFound } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LandingScripts, LandingScriptsInput } from '../../../contracts/landings.ts';

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof landingScriptsRepository>['find']>>>;

const toScripts = (r: Row): LandingScripts => ({
  landingId: r.id, landingCode: r.landing_code, title: r.title,
  headScript: r.head_script, bodyScript: r.body_script, conversionScript: r.conversion_script, updatedAt: r.updated_at,
});

/** Head, body and conversion scripts (pixels, analytics): the only scripts a landing runs besides its own. */
export function landingScriptsService(db: Kysely<Database>, clock: Clock, changed: (ids: number[]) => Promise<void>) {
  const repo = landingScriptsRepository(db);

  async function get(shopId: number, id: number) {
    const r = await repo.find(shopId, id);
    if (!r) throw notFound('랜딩을 찾을 수 없습니다.');
    return toScripts(r);
  }

  return {
    get,
    list: async (shopId: number) => ({ items: (await repo.list(shopId)).map(toScripts) }),
    async update(shopId: number, id: number, input: LandingScriptsInput, actor: Actor) {
      const before = await get(shopId, id);
      const now = clock();
      await repo.update(id, { head_script: input.headScript, body_script: input.bodyScript, conversion_script: input.conversionScript, updated_at: now.toISOString() });
      const changedParts = (['headScript', 'bodyScript', 'conversionScript'] as const).filter((k) => before[k] !== input[k]);
      await auditBy(db, actor, { action: 'landing-scripts-update', target: 'landing', targetId: id, detail: { changed: changedParts } }, now);
      await changed([id]);
      return get(shopId, id);
    },
  };
}
