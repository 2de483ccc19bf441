// GET /api/v1/leads: a page of the key's shop's leads after the cursor, in feed order. Leads
// committed since the last numbering are numbered first (assignFeedSeq: one index probe when
// none wait), so a lead accepted a moment ago is in the next page. Every page that hands out
// leads goes into the shop's access record (one row: how many, which key), as an export does.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import type { ApiKeyCaller } from '../../plugins/route.ts';
import { recordAccess } from '../audit/audit.service.ts';
import { assignFeedSeq } from '../leads/leads.entry.ts';
import { pullApiRepository, type FeedRow } from './pull-api.repository.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { labelledAnswers } from '../../../contracts/leads.ts';
import { leadOrigin } from '../../../contracts/delivery.ts';
import type { QueryOf } from '../../../contracts/endpoint.ts';
import { encodeCursor, type pullApi, type PulledLead, type PullLeadsResponse } from '../../../contracts/pull-api.ts';

/** A lead as the pull API answers it: every field, the phone in full only for a key granted it. */
function toPulledLead(r: FeedRow, fullPhone: boolean): PulledLead {
  return {
    id: r.id,
    receivedAt: r.created_at,
    source: leadOrigin(r.source),
    name: r.name,
    phone: fullPhone ? r.phone : maskPhone(r.phone),
    landing: { id: r.landing_id, code: r.landing_code, title: r.landing_title, ...(r.variant ? { variant: r.variant } : {}) },
    medium: r.medium_name,
    answers: labelledAnswers(r.answers, r.form_fields, r.variant_content),
    utm: { source: r.utm_source, medium: r.utm_medium, campaign: r.utm_campaign, content: r.utm_content, term: r.utm_term },
    csStatus: r.cs_status,
    memo: r.memo,
  };
}

export function pullApiService(db: Kysely<Database>, clock: Clock) {
  const repo = pullApiRepository(db);
  return {
    async leads(key: ApiKeyCaller, q: QueryOf<typeof pullApi.leads>, ip: string): Promise<PullLeadsResponse> {
      await assignFeedSeq(db);
      const since = q.since ?? 0;
      const rows = await repo.page(key.shopId, since, q.limit + 1);
      const page = rows.slice(0, q.limit);
      const last = page[page.length - 1];
      if (page.length) {
        await recordAccess(db, { id: null, ip }, {
          shopId: key.shopId, action: 'api-pull', rowCount: page.length,
          detail: { keyId: key.id, keyName: key.name, keyPrefix: key.prefix, fullPhone: key.fullPhone },
        }, clock());
      }
      return {
        leads: page.map((r) => toPulledLead(r, key.fullPhone)),
        nextCursor: encodeCursor(last ? Number(last.feed_seq) : since),
        hasMore: rows.length > q.limit,
      };
    },
  };
}
