// DB 전송 설정: a shop's delivery channels. Secrets are the server's to make and keep: a
// webhook's signing secret is generated here and shown once (on create, on rotation), a
// gateway key is written and never read back; the audit trail records every change without
// them. Turning a channel off cancels the jobs still waiting for it; turning it back on clears
// the system's stop (a receiver's 410).
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { itemsOf } from '../../db/paging.ts';
import { AppError, badRequest, conflict, foundOr404 } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import { nextDigestAt } from './outbox.ts';
import { maskPhone } from '../../../contracts/rules.ts';
import { DELIVERY_FIELDS, type DeliveryField, type DeliveryKind } from '../../../contracts/delivery.ts';
import {
  SECRET_GRACE_HOURS,
  type ChannelConfig, type DeliveryChannel, type DeliveryChannelInput, type DeliveryChannelListQuery, type DeliveryTestResult,
  type EmailConfig, type RotatedSecret, type SmsConfig, type SmtpStatus,
} from '../../../contracts/delivery-channels.ts';
import { deliveryChannelsRepository, type ChannelActivity, type DeliveryChannelRow } from './delivery-channels.repository.ts';
import type { SendResult } from './channel.ts';

const NOT_FOUND = '전송 채널을 찾을 수 없습니다.';
/** What a cancelled job says in the history. */
export const CHANNEL_STOPPED = '채널이 중지되었습니다';

export interface DeliveryChannelsDeps {
  /** The worker's test send (a sample lead to the channel now). */
  sendTest(channelId: number, now: Date): Promise<SendResult>;
  /** Why a receiver's URL may not be saved (an internal address …), or null: the outbound client's own rule. */
  urlProblem(url: string): Promise<string | null>;
  smtpUrl?: string;
  mailFrom: string;
}

const parse = <T>(json: string, fallback: T): T => {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
};

/** A new webhook signing secret: recognisable by its prefix, 192 random bits. */
export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64url')}`;
}
const secretPrefixOf = (secret: string) => secret.slice(0, 12);

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** Where it goes in a few words (never a full phone number): "desk@smile.kr 외 1명". */
function targetOf(kind: DeliveryKind, config: Record<string, unknown>): string {
  const more = (list: string[], show: (s: string) => string) =>
    list.length === 0 ? '' : list.length === 1 ? show(list[0]!) : `${show(list[0]!)} 외 ${list.length - 1}명`;
  if (kind === 'webhook') return hostOf(String(config.url ?? ''));
  if (kind === 'email') return more((config.recipients as string[] | undefined) ?? [], (s) => s);
  return more((config.receivers as string[] | undefined) ?? [], maskPhone);
}

function toChannel(row: DeliveryChannelRow, act: ChannelActivity, now: Date): DeliveryChannel {
  const config = parse<Record<string, unknown>>(row.config, {});
  const graceLive = !!row.previous_secret && !!row.previous_secret_until && row.previous_secret_until > now.toISOString();
  return {
    id: row.id,
    shopId: row.shop_id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled === 1,
    mode: row.mode,
    digestAt: row.digest_at,
    statuses: parse<string[]>(row.statuses, []),
    landingIds: parse<number[]>(row.landing_ids, []),
    includeDuplicates: row.include_duplicates === 1,
    fields: parse<string[]>(row.fields, []).filter((f): f is DeliveryField => (DELIVERY_FIELDS as readonly string[]).includes(f)),
    config,
    target: targetOf(row.kind, config),
    hasSecret: !!row.secret,
    secretPrefix: row.kind === 'webhook' && row.secret ? secretPrefixOf(row.secret) : null,
    previousSecretUntil: graceLive ? row.previous_secret_until : null,
    disabledReason: row.enabled === 1 ? null : row.disabled_reason,
    disabledAt: row.enabled === 1 ? null : row.disabled_at,
    lastDelivery: act.last,
    pendingJobs: act.pending,
    failedJobs: act.failed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns an input sets (secrets aside). */
function columnsOf(input: DeliveryChannelInput) {
  return {
    name: input.name,
    enabled: input.enabled ? 1 : 0,
    mode: input.mode,
    digest_at: input.mode === 'digest' ? input.digestAt : null,
    statuses: JSON.stringify(input.statuses),
    landing_ids: JSON.stringify(input.landingIds),
    fields: JSON.stringify(input.fields),
    include_duplicates: input.includeDuplicates ? 1 : 0,
    config: JSON.stringify(input.config),
  };
}

/** What the audit trail keeps of a channel: everything but secrets (a gateway key lives only in `secret`). */
function auditDetail(input: DeliveryChannelInput) {
  const { apiKey, ...rest } = input;
  return { ...rest, apiKeyChanged: !!apiKey };
}

const fullPhoneOf = (kind: DeliveryKind, config: ChannelConfig | Record<string, unknown>) =>
  kind !== 'webhook' && (config as EmailConfig | SmsConfig).fullPhone === true;

export function deliveryChannelsService(db: Kysely<Database>, clock: Clock, deps: DeliveryChannelsDeps) {
  const repo = deliveryChannelsRepository(db);

  const row = (shopId: number, id: number) => foundOr404(repo.find(shopId, id), NOT_FOUND);

  async function get(shopId: number, id: number): Promise<DeliveryChannel> {
    const r = await row(shopId, id);
    const act = await repo.activity(shopId, [id]);
    return toChannel(r, act.get(id)!, clock());
  }

  /** The landing filter names the shop's own landings only. */
  async function checkLandings(shopId: number, ids: number[]) {
    if (ids.length === 0) return;
    const own = new Set((await repo.landings(shopId)).map((l) => l.id));
    if (ids.some((id) => !own.has(id))) throw badRequest('이 업체의 랜딩만 선택할 수 있습니다.', { landingIds: '이 업체의 랜딩만 선택할 수 있습니다.' });
  }

  /** A receiver the server may not reach is refused on its field now, not at the first lead (each send checks again). */
  async function checkReceiver(input: DeliveryChannelInput) {
    const field = input.kind === 'webhook' ? 'url' : input.kind === 'sms' ? 'gatewayUrl' : null;
    if (!field) return;
    const problem = await deps.urlProblem(String((input.config as unknown as Record<string, unknown>)[field] ?? ''));
    if (problem) throw badRequest(problem, { [field]: problem });
  }

  /** Jobs waiting for their first send go at the channel's new time (its mode or digest time changed). */
  async function reschedule(trx: Kysely<Database>, id: number, input: DeliveryChannelInput, now: Date) {
    const at = input.mode === 'digest' ? nextDigestAt(input.digestAt, now) : now;
    await deliveryChannelsRepository(trx).reschedulePending(id, at.toISOString(), now.toISOString());
  }

  return {
    async list(shopId: number, q: DeliveryChannelListQuery) {
      const page = await repo.list(shopId, q);
      const act = await repo.activity(shopId, page.rows.map((r) => r.id));
      const now = clock();
      return itemsOf(page, (r) => toChannel(r, act.get(r.id)!, now));
    },

    get,

    async create(shopId: number, input: DeliveryChannelInput, actor: Actor) {
      await checkLandings(shopId, input.landingIds);
      await checkReceiver(input);
      if (input.kind === 'sms' && !input.apiKey) {
        throw badRequest('게이트웨이 API 키를 입력하세요.', { apiKey: '게이트웨이 API 키를 입력하세요.' });
      }
      const secret = input.kind === 'webhook' ? newWebhookSecret() : input.kind === 'sms' ? input.apiKey : null;
      const at = clock();
      const now = at.toISOString();
      const id = await inTransaction(db, async (trx) => {
        const { id } = await deliveryChannelsRepository(trx).insert({
          shop_id: shopId, kind: input.kind, ...columnsOf(input), secret, created_by: actor.id, created_at: now, updated_at: now,
        });
        await auditBy(trx, actor, { action: 'delivery-channel.create', target: 'delivery-channel', targetId: id, detail: { shopId, ...auditDetail(input) } }, at);
        if (fullPhoneOf(input.kind, input.config)) {
          await auditBy(trx, actor, { action: 'delivery-channel.full-phone', target: 'delivery-channel', targetId: id, detail: { shopId, fullPhone: true } }, at);
        }
        return id;
      });
      return { ...(await get(shopId, id)), newSecret: input.kind === 'webhook' ? secret : null };
    },

    async update(shopId: number, id: number, input: DeliveryChannelInput, actor: Actor) {
      const before = await row(shopId, id);
      if (before.kind !== input.kind) {
        throw badRequest('채널 종류는 바꿀 수 없습니다. 새 채널을 추가하세요.', { kind: '채널 종류는 바꿀 수 없습니다. 새 채널을 추가하세요.' });
      }
      await checkLandings(shopId, input.landingIds);
      await checkReceiver(input);
      const at = clock();
      const now = at.toISOString();
      const cols = columnsOf(input);
      await inTransaction(db, async (trx) => {
        const r = deliveryChannelsRepository(trx);
        const turnedOn = before.enabled === 0 && input.enabled;
        const turnedOff = before.enabled === 1 && !input.enabled;
        await r.update(id, {
          ...cols,
          // A new gateway key replaces the old; left empty, the stored one stays.
          ...(input.kind === 'sms' && input.apiKey ? { secret: input.apiKey } : {}),
          ...(turnedOn ? { disabled_reason: null, disabled_at: null } : {}),
          updated_at: now,
        });
        const cancelled = turnedOff ? await r.cancelPending(id, CHANNEL_STOPPED, now) : 0;
        if (!turnedOff && (before.mode !== input.mode || before.digest_at !== cols.digest_at)) await reschedule(trx, id, input, at);
        await auditBy(trx, actor, {
          action: 'delivery-channel.update', target: 'delivery-channel', targetId: id, detail: { shopId, ...auditDetail(input), cancelledJobs: cancelled },
        }, at);
        const wasFull = fullPhoneOf(before.kind, parse(before.config, {}));
        const isFull = fullPhoneOf(input.kind, input.config);
        if (wasFull !== isFull) {
          await auditBy(trx, actor, { action: 'delivery-channel.full-phone', target: 'delivery-channel', targetId: id, detail: { shopId, fullPhone: isFull } }, at);
        }
      });
      return get(shopId, id);
    },

    async setEnabled(shopId: number, id: number, enabled: boolean, actor: Actor) {
      const before = await row(shopId, id);
      if ((before.enabled === 1) === enabled) return get(shopId, id);
      const at = clock();
      const now = at.toISOString();
      await inTransaction(db, async (trx) => {
        const r = deliveryChannelsRepository(trx);
        await r.update(id, { enabled: enabled ? 1 : 0, ...(enabled ? { disabled_reason: null, disabled_at: null } : {}), updated_at: now });
        const cancelled = enabled ? 0 : await r.cancelPending(id, CHANNEL_STOPPED, now);
        await auditBy(trx, actor, {
          action: enabled ? 'delivery-channel.enable' : 'delivery-channel.disable', target: 'delivery-channel', targetId: id,
          detail: { shopId, name: before.name, ...(enabled ? { clearedReason: before.disabled_reason } : { cancelledJobs: cancelled }) },
        }, at);
      });
      return get(shopId, id);
    },

    async remove(shopId: number, id: number, actor: Actor) {
      const before = await row(shopId, id);
      // Jobs keep their channel: the delivery history (third-party provision) outlives a setting.
      if ((await repo.deliveryJobCount(id)) > 0) {
        throw conflict(`${before.name} 채널로 전송한 이력이 있어 삭제할 수 없습니다. 더 보내지 않으려면 사용 중지하세요.`);
      }
      await inTransaction(db, async (trx) => {
        const r = deliveryChannelsRepository(trx);
        await r.removeTestJobs(id);
        await r.remove(id);
        await auditBy(trx, actor, { action: 'delivery-channel.delete', target: 'delivery-channel', targetId: id, detail: { shopId, name: before.name, kind: before.kind } }, clock());
      });
    },

    async rotateSecret(shopId: number, id: number, actor: Actor): Promise<RotatedSecret> {
      const before = await row(shopId, id);
      if (before.kind !== 'webhook') throw badRequest('서명 비밀키는 웹훅 채널에만 있습니다.');
      const at = clock();
      const secret = newWebhookSecret();
      const previousValidUntil = before.secret ? new Date(at.getTime() + SECRET_GRACE_HOURS * 3600_000).toISOString() : null;
      await inTransaction(db, async (trx) => {
        await deliveryChannelsRepository(trx).update(id, {
          secret, previous_secret: before.secret, previous_secret_until: previousValidUntil, updated_at: at.toISOString(),
        });
        await auditBy(trx, actor, {
          action: 'delivery-channel.rotate-secret', target: 'delivery-channel', targetId: id,
          detail: { shopId, name: before.name, secretPrefix: secretPrefixOf(secret), previousValidUntil },
        }, at);
      });
      return { secret, secretPrefix: secretPrefixOf(secret), previousValidUntil };
    },

    async test(shopId: number, id: number, actor: Actor): Promise<DeliveryTestResult> {
      const before = await row(shopId, id);
      const at = clock();
      let r: SendResult;
      try {
        r = await deps.sendTest(id, at);
      } catch (err) {
        if (err instanceof AppError) throw err;
        r = { ok: false, status: null, error: err instanceof Error ? err.message : String(err), durationMs: 0 };
      }
      await auditBy(db, actor, {
        action: 'delivery-channel.test', target: 'delivery-channel', targetId: id,
        detail: { shopId, name: before.name, ok: r.ok, status: r.status },
      }, at);
      return { ok: r.ok, status: r.status, durationMs: r.durationMs, excerpt: r.excerpt ?? null, error: r.error ?? null };
    },

    smtpStatus: (): SmtpStatus => ({ configured: !!deps.smtpUrl, from: deps.mailFrom }),

    landings: async (shopId: number) => (await repo.landings(shopId)).map((l) => ({ id: l.id, title: l.title, code: l.landing_code })),
  };
}

export type DeliveryChannelsService = ReturnType<typeof deliveryChannelsService>;