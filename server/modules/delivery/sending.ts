// A channel and a lead as a sender sees them (their rows parsed), and the '테스트 전송' button's
// send: a sample lead, stored nowhere, through the same sender as the worker's.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { notFound } from '../../lib/errors.ts';
import {
  DEFAULT_DELIVERY_FIELDS, DELIVERY_FIELDS, leadOrigin, type DeliveryField, type DeliveryKind, type WebhookBody,
} from '../../../contracts/delivery.ts';
import { labelledAnswers } from '../../../contracts/leads.ts';
import type { ChannelSender, DeliveryLeadRow, SendChannel, SenderDeps, SendResult } from './channel.ts';
import { SENDERS } from './senders.ts';
import { deliveryJobsRepository, type ChannelRow, type LeadRow } from './delivery-jobs.repository.ts';

/** The webhook event of each kind of send. */
export const EVENTS: Record<'instant' | 'digest' | 'manual', WebhookBody['event']> = { instant: 'lead.created', digest: 'lead.digest', manual: 'lead.resent' };

function parseJson<T>(json: string | null, fallback: T): T {
  if (!json) return fallback;
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

/** A channel row as a sender sees it; the previous secret only while its grace period lasts. */
export function toSendChannel(row: ChannelRow, now: Date): SendChannel {
  const chosen = parseJson<unknown[]>(row.fields, []);
  const fields = DELIVERY_FIELDS.filter((f) => Array.isArray(chosen) && chosen.includes(f));
  const config = parseJson<Record<string, unknown>>(row.config, {});
  return {
    id: row.id, shopId: row.shop_id, shopCode: row.shop_code, shopName: row.shop_name, name: row.name, kind: row.kind,
    fields: fields.length ? fields : ([...DEFAULT_DELIVERY_FIELDS] as DeliveryField[]),
    config: config && typeof config === 'object' && !Array.isArray(config) ? config : {},
    secret: row.secret,
    previousSecret: row.previous_secret && row.previous_secret_until && row.previous_secret_until > now.toISOString() ? row.previous_secret : null,
  };
}

export function toLead(r: LeadRow): DeliveryLeadRow {
  let answers: DeliveryLeadRow['answers'];
  try {
    answers = labelledAnswers(r.answers, r.form_fields, r.variant_content);
  } catch {
    answers = [];
  }
  return {
    id: r.id, createdAt: r.created_at, source: leadOrigin(r.source), name: r.name, phone: r.phone, landingId: r.landing_id, landingCode: r.landing_code, landingTitle: r.landing_title,
    variant: r.variant, mediumName: r.medium_name, answers,
    utm: { source: r.utm_source, medium: r.utm_medium, campaign: r.utm_campaign, content: r.utm_content, term: r.utm_term },
    csStatus: r.cs_status, memo: r.memo,
  };
}

/** The sample lead of a test send (stored nowhere). */
export function sampleLead(now: Date): DeliveryLeadRow {
  return {
    id: 0, createdAt: now.toISOString(), source: 'landing', name: '테스트', phone: '01000000000', landingId: null, landingCode: 'test', landingTitle: '테스트 전송',
    variant: null, mediumName: null, answers: [{ label: '문의 내용', value: '테스트 전송입니다.' }],
    utm: { source: null, medium: null, campaign: null, content: null, term: null }, csStatus: '미처리', memo: null,
  };
}

/**
 * '테스트 전송': a sample lead (not stored) sent once through the channel's sender, with the
 * channel's fields, as event `lead.test`; answers what the receiver said. No job is written.
 */
export async function sendTest(
  db: Kysely<Database>, channelId: number, now: Date, o: { senders?: Partial<Record<DeliveryKind, ChannelSender>>; deps?: SenderDeps } = {},
): Promise<SendResult> {
  const [row] = await deliveryJobsRepository(db).channels([channelId]);
  if (!row) throw notFound('전송 채널을 찾을 수 없습니다.');
  const channel = toSendChannel(row, now);
  const sender = { ...SENDERS, ...o.senders }[channel.kind];
  if (!sender) return { ok: false, status: null, error: '보낼 수 없는 종류의 채널입니다.', durationMs: 0, retryable: false };
  return sender({ channel, items: [{ jobId: 0, idempotencyKey: `test-${crypto.randomUUID()}`, lead: sampleLead(now) }], event: 'lead.test', attempt: 1, now }, o.deps ?? {});
}
