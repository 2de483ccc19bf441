// DB 전송 설정 › API 키: a shop's keys for the pull API (GET /api/v1/leads, contracts/pull-api.ts).
// A key is shown once when it is made and kept only as its SHA-256; its first characters tell
// keys apart in the list. A key reaches one shop's leads, with phone numbers in full only when
// it was granted that (recorded), and stops working the moment it is revoked.
import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';
import { shopItemParams, shopParam } from './list.ts';
import { requiredText } from './fields.ts';

/** Every key starts so: a secret scanner (and a person) can tell what it is. */
export const API_KEY_PREFIX = 'lr_live_';
/** Random base62 characters after the prefix (≈190 bits). */
export const API_KEY_RANDOM_LENGTH = 32;
/** The characters stored and shown to tell keys apart: the prefix and the first four random ones. */
export const API_KEY_SHOWN_LENGTH = 12;
/** A key as it is handed out. */
export const API_KEY_RE = /^lr_live_[0-9A-Za-z]{32}$/;
/** Keys a shop may have in use at once (revoked ones do not count). */
export const MAX_ACTIVE_API_KEYS = 10;

export const apiKeyInput = z.object({
  name: requiredText(60, '키 이름을 입력하세요. (예: 사내 CRM 연동)'),
  /** The key receives phone numbers in full (otherwise masked, 010-****-5678). */
  fullPhone: z.boolean('전체 연락처 제공 여부를 선택하세요.').default(false),
});

export const apiKeyItem = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters of the key (lr_live_ and four more). */
  prefix: z.string(),
  fullPhone: z.boolean(),
  createdAt: z.string(),
  createdByName: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiKeyItem = z.infer<typeof apiKeyItem>;

/** A key just made: the only answer that carries the key itself. */
export const createdApiKey = apiKeyItem.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

export const apiKeysApi = {
  /** The shop's keys, those in use first, newest first. */
  list: endpoint({ method: 'GET', path: '/api/shops/:shopId/api-keys', params: shopParam, response: z.object({ items: z.array(apiKeyItem) }) }),
  create: endpoint({ method: 'POST', path: '/api/shops/:shopId/api-keys', params: shopParam, body: apiKeyInput, response: createdApiKey, status: 201 }),
  /** Stops the key for good (the row stays, with when it was revoked). */
  revoke: endpoint({ method: 'POST', path: '/api/shops/:shopId/api-keys/:id/revoke', params: shopItemParams, response: apiKeyItem }),
};
