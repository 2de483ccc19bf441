// A shop's API keys: made (shown once, kept as SHA-256), listed, revoked — each change in the
// audit trail — and checked on every pull. Keys never reach a log: only their hash is looked
// up and only their first characters are kept in the clear.
import crypto from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { inTransaction } from '../../db/dialect-sql.ts';
import { AppError, conflict, forbidden, foundOr404 } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { auditBy, type Actor } from '../audit/audit.service.ts';
import type { ApiKeyCaller } from '../../plugins/route.ts';
import { apiKeysRepository, type ApiKeyRow } from './api-keys.repository.ts';
import { ERROR_CODES } from '../../../contracts/errors.ts';
import type { BodyOf } from '../../../contracts/endpoint.ts';
import {
  API_KEY_PREFIX, API_KEY_RANDOM_LENGTH, API_KEY_RE, API_KEY_SHOWN_LENGTH, MAX_ACTIVE_API_KEYS, type apiKeysApi, type ApiKeyItem, type CreatedApiKey,
} from '../../../contracts/api-keys.ts';
import { KEY_TOUCH_EVERY_MS } from '../../../contracts/pull-api.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new key: the prefix and 32 base62 characters, each uniform (bytes past 247 are drawn again). */
function newApiKey(): string {
  let out = API_KEY_PREFIX;
  while (out.length < API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH) {
    for (const b of crypto.randomBytes(48)) {
      if (b < 248 && out.length < API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH) out += BASE62[b % 62];
    }
  }
  return out;
}

const hashApiKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');

/** The key a request presents: `Authorization: Bearer <key>`, or `X-Api-Key: <key>`. */
export function presentedKey(headers: IncomingHttpHeaders): string | null {
  const auth = headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1]! : null;
  }
  const header = headers['x-api-key'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim() || null;
}

const toItem = (r: ApiKeyRow): ApiKeyItem => ({
  id: r.id, name: r.name, prefix: r.prefix, fullPhone: !!r.full_phone, createdAt: r.created_at, createdByName: r.created_by_name,
  lastUsedAt: r.last_used_at, lastUsedIp: r.last_used_ip, revokedAt: r.revoked_at,
});

/** A 401 in Korean and English (the reader is often a developer abroad), with the scheme to use. */
function keyRefused(reply: FastifyReply, message: string): AppError {
  reply.header('www-authenticate', 'Bearer realm="leadroom"');
  return new AppError(401, ERROR_CODES.UNAUTHENTICATED, message);
}

export const KEY_MESSAGES = {
  missing: 'API 키가 없습니다. Authorization: Bearer <API 키> 헤더로 보내세요. (Missing API key: send it as Authorization: Bearer <key>.)',
  invalid: 'API 키가 올바르지 않습니다. (Invalid API key.)',
  revoked: '폐기된 API 키입니다. DB 전송 설정에서 새 키를 발급하세요. (This API key has been revoked.)',
  shopDisabled: '사용이 중지된 업체입니다. (This shop is disabled.)',
  fullPhoneDenied: '전체 연락처를 주는 키는 전화번호 전체를 볼 수 있는 계정만 발급할 수 있습니다.',
  tooMany: `사용 중인 API 키는 업체당 ${MAX_ACTIVE_API_KEYS}개까지입니다. 쓰지 않는 키를 먼저 폐기하세요.`,
} as const;

export function apiKeysService(db: Kysely<Database>, clock: Clock) {
  const repo = apiKeysRepository(db);
  const load = (shopId: number, id: number) => foundOr404(repo.find(shopId, id), 'API 키를 찾을 수 없습니다.');

  return {
    list: async (shopId: number) => ({ items: (await repo.list(shopId)).map(toItem) }),

    /** Makes a key; the answer is the only place the key itself ever appears. */
    async create(shopId: number, input: BodyOf<typeof apiKeysApi.create>, actor: Actor): Promise<CreatedApiKey> {
      // A key with full numbers would show them to whoever holds it: only an account that may see them may grant it.
      if (input.fullPhone && !actor.canUnmask) throw forbidden(KEY_MESSAGES.fullPhoneDenied);
      const key = newApiKey();
      const prefix = key.slice(0, API_KEY_SHOWN_LENGTH);
      const now = clock();
      const id = await inTransaction(db, async (trx) => {
        const r = apiKeysRepository(trx);
        if ((await r.countActive(shopId)) >= MAX_ACTIVE_API_KEYS) throw conflict(KEY_MESSAGES.tooMany);
        const id = await r.insert({
          shop_id: shopId, name: input.name, prefix, key_hash: hashApiKey(key), full_phone: input.fullPhone ? 1 : 0, created_by: actor.id, created_at: now.toISOString(),
        });
        // A key with full phone numbers hands personal data to another system: who granted it is on record.
        await auditBy(trx, actor, { action: 'api-key-create', target: 'api-key', targetId: id, detail: { shopId, name: input.name, prefix, fullPhone: input.fullPhone } }, now);
        return id;
      });
      return { ...toItem(await load(shopId, id)), key };
    },

    /** Stops a key for good; revoking a revoked key changes nothing. */
    async revoke(shopId: number, id: number, actor: Actor): Promise<ApiKeyItem> {
      const row = await load(shopId, id);
      if (row.revoked_at) return toItem(row);
      const now = clock();
      await inTransaction(db, async (trx) => {
        await apiKeysRepository(trx).revoke(id, now.toISOString());
        await auditBy(trx, actor, { action: 'api-key-revoke', target: 'api-key', targetId: id, detail: { shopId, name: row.name, prefix: row.prefix } }, now);
      });
      return toItem(await load(shopId, id));
    },

    /** The caller of a pull: the key presented, looked up by its hash; its use noted at most once a minute. */
    async authenticate(headers: IncomingHttpHeaders, ip: string, reply: FastifyReply): Promise<ApiKeyCaller> {
      const key = presentedKey(headers);
      if (!key) throw keyRefused(reply, KEY_MESSAGES.missing);
      // Nothing shaped unlike our keys reaches the database.
      if (!API_KEY_RE.test(key)) throw keyRefused(reply, KEY_MESSAGES.invalid);
      const row = await repo.byHash(hashApiKey(key));
      if (!row) throw keyRefused(reply, KEY_MESSAGES.invalid);
      if (row.revoked_at) throw keyRefused(reply, KEY_MESSAGES.revoked);
      if (row.shop_status !== 'active') throw new AppError(403, ERROR_CODES.FORBIDDEN, KEY_MESSAGES.shopDisabled);
      const now = clock();
      const staleBefore = new Date(now.getTime() - KEY_TOUCH_EVERY_MS).toISOString();
      if (!row.last_used_at || row.last_used_at < staleBefore) await repo.touch(row.id, now.toISOString(), ip, staleBefore);
      return { id: row.id, shopId: row.shop_id, name: row.name, prefix: row.prefix, fullPhone: !!row.full_phone };
    },
  };
}
