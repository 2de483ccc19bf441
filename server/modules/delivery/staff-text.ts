// A text to one of the shop's own staff through the shop's SMS channel (its gateway, key and sender
// number): counselors' alerts (the alerts module, through its link) text a counselor's own number.
// The same sender as the channel's deliveries, so the same outbound guard and gateway rules; the
// text is the caller's (it carries no unmasked personal data) and the channel's receivers are not used.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { SenderDeps } from './channel.ts';
import { SENDERS } from './senders.ts';
import { sampleLead, toSendChannel } from './sending.ts';
import { deliveryJobsRepository } from './delivery-jobs.repository.ts';

export async function sendStaffText(
  db: Kysely<Database>, channelId: number, o: { to: string; text: string; test: boolean; now: Date; deps: SenderDeps },
): Promise<{ ok: boolean; error: string | null }> {
  const [row] = await deliveryJobsRepository(db).channels([channelId]);
  if (!row || row.kind !== 'sms' || !row.enabled) return { ok: false, error: '업체의 문자 채널이 없습니다.' };
  const channel = toSendChannel(row, o.now);
  // The whole message is the template: no placeholder is left in it to fill from a lead.
  channel.config = { ...channel.config, receivers: [o.to], template: o.text.replaceAll('#{', '#\u200b{'), fullPhone: false };
  const lead = { ...sampleLead(o.now), name: '', phone: '' };
  const r = await SENDERS.sms({ channel, items: [{ jobId: 0, idempotencyKey: `alert-${crypto.randomUUID()}`, lead }], event: o.test ? 'lead.test' : 'lead.created', attempt: 1, now: o.now }, o.deps);
  return { ok: r.ok, error: r.ok ? null : (r.error ?? '문자를 보내지 못했습니다.') };
}
