import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { landingScriptsRepository } from './landing-scripts.repository.ts';
import { badRequest, foundOr404 } from '../../lib/errors.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  FREE_SCRIPT_FIELDS, FREE_SCRIPTS_DISABLED, type LandingScripts, type LandingScriptsInput,
} from '../../../contracts/landings.ts';
import { trackingTags as trackingTagsSchema } from '../../../contracts/tracking-tags.ts';

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof landingScriptsRepository>['find']>>>;

interface LandingScriptsOptions {
  /** Public pages have an origin of their own (PUBLIC_ORIGIN): free-form scripts may be set and are served. */
  freeScriptsEnabled: boolean;
  changed(ids: number[]): Promise<void>;
}

/**
 * A landing's tracking tags (from templates: anyone with write on the screen) and free-form
 * scripts (only while public pages are served from an origin of their own: a script on the
 * back office's origin would act with the session of whoever opens the page).
 */
export function landingScriptsService(db: Kysely<Database>, clock: Clock, opts: LandingScriptsOptions) {
  const repo = landingScriptsRepository(db);

  const toScripts = (r: Row): LandingScripts => ({
    landingId: r.id, landingCode: r.landing_code, title: r.title,
    trackingTags: trackingTagsSchema.parse(JSON.parse(r.tracking_tags)),
    headScript: r.head_script, bodyScript: r.body_script, conversionScript: r.conversion_script,
    freeScriptsEnabled: opts.freeScriptsEnabled, updatedAt: r.updated_at,
  });

  const get = async (shopId: number, id: number) => toScripts(await foundOr404(repo.find(shopId, id), '랜딩을 찾을 수 없습니다.'));

  return {
    get,
    list: async (shopId: number) => ({ items: (await repo.list(shopId)).map(toScripts) }),

    async update(shopId: number, id: number, input: LandingScriptsInput, actor: Actor) {
      const before = await get(shopId, id);
      // Without an origin of their own, stored free-form scripts may stay (unserved) or be
      // cleared, but nothing new is taken.
      if (!opts.freeScriptsEnabled) {
        const fields = Object.fromEntries(
          FREE_SCRIPT_FIELDS.filter((k) => input[k].trim() !== '' && input[k] !== before[k]).map((k) => [k, FREE_SCRIPTS_DISABLED]),
        );
        if (Object.keys(fields).length) throw badRequest(FREE_SCRIPTS_DISABLED, fields);
      }
      const now = clock();
      await db.transaction().execute(async (trx) => {
        await landingScriptsRepository(trx).update(id, {
          tracking_tags: JSON.stringify(input.trackingTags),
          head_script: input.headScript, body_script: input.bodyScript, conversion_script: input.conversionScript,
          updated_at: now.toISOString(),
        });
        const pick = (s: Pick<LandingScripts, 'trackingTags' | (typeof FREE_SCRIPT_FIELDS)[number]>) => ({
          trackingTags: s.trackingTags, headScript: s.headScript, bodyScript: s.bodyScript, conversionScript: s.conversionScript,
        });
        await auditBy(trx, actor, { action: 'landing-scripts-update', target: 'landing', targetId: id, detail: { before: pick(before), after: pick(input) } }, now);
      });
      await opts.changed([id]);
      return get(shopId, id);
    },
  };
}
