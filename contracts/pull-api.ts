// The pull API: a shop's own system fetches its leads with an API key (contracts/api-keys.ts),
// page after page, from an opaque cursor. Leads come in feed order — a number each lead gets
// once it has committed, in one serial step — so a reader that loops `since=nextCursor` sees
// every lead exactly once, however late one committed. These schemas validate the route, type
// the examples and generate the OpenAPI document and the docs page (/api/v1/openapi.json,
// /api/v1/docs): nothing about the API is written down twice.
import { z } from './zod.ts';
import { endpoint } from './endpoint.ts';
import { LEAD_ORIGINS, type DeliveredLead } from './delivery.ts';

export const PULL_LIMIT_DEFAULT = 100;
export const PULL_LIMIT_MAX = 500;
/** Requests per key (per server process) in a minute. */
export const PULL_RATE_LIMIT = { max: 60, timeWindowMs: 60_000 } as const;
/** A key's last use is written at most this often (a pull loop stays a read). */
export const KEY_TOUCH_EVERY_MS = 60_000;
/** The header an API key may also come in (instead of Authorization: Bearer). */
export const API_KEY_HEADER = 'X-Api-Key';

export const INVALID_CURSOR_MESSAGE =
  '커서(since)가 올바르지 않습니다. 직전 응답의 nextCursor를 그대로 보내세요. (Invalid cursor: send the nextCursor of the previous response as is.)';
const LIMIT_MESSAGE = `limit은 1부터 ${PULL_LIMIT_MAX}까지의 정수로 입력하세요. (limit must be an integer from 1 to ${PULL_LIMIT_MAX}.)`;

// ── The cursor: base64url of the last feed number seen ──────────────────────────────────

const toBase64Url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The cursor after feed number `seq` (0: the start). */
export function encodeCursor(seq: number): string {
  return toBase64Url(String(seq));
}

/** The feed number a cursor names, or null when it is not one this API handed out. */
export function decodeCursor(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,24}$/.test(cursor)) return null;
  let text: string;
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (cursor.length % 4)) % 4));
  } catch {
    return null;
  }
  if (!/^(0|[1-9]\d{0,15})$/.test(text)) return null;
  const seq = Number(text);
  // One spelling per number: a cursor that was tampered with but decodes alike is still refused.
  return Number.isSafeInteger(seq) && encodeCursor(seq) === cursor ? seq : null;
}

/** The query of GET /api/v1/leads; `since` comes out as the feed number (0 for the start). */
export const pullLeadsQuery = z.object({
  since: z
    .string()
    .max(40, INVALID_CURSOR_MESSAGE)
    .refine((v) => v === '' || decodeCursor(v) !== null, INVALID_CURSOR_MESSAGE)
    .transform((v) => (v === '' ? 0 : decodeCursor(v)!))
    .optional()
    .describe('직전 응답의 nextCursor (opaque cursor). 처음에는 보내지 않습니다(또는 빈 값): 가장 오래된 DB부터.'),
  limit: z.coerce
    .number(LIMIT_MESSAGE)
    .int(LIMIT_MESSAGE)
    .min(1, LIMIT_MESSAGE)
    .max(PULL_LIMIT_MAX, LIMIT_MESSAGE)
    .default(PULL_LIMIT_DEFAULT)
    .describe(`한 번에 받을 DB 수 (page size), 1–${PULL_LIMIT_MAX}, 기본 ${PULL_LIMIT_DEFAULT}.`),
});

const utm = (what: string) => z.string().nullable().describe(`utm_${what}`);

/** One lead as the pull API answers it: every field a channel may send (contracts/delivery.ts). */
export const pulledLead = z.object({
  id: z.number().int().describe('DB 번호 (lead id): 업체 안에서 한 DB를 가리키는 고유 번호'),
  receivedAt: z.string().describe('접수 일시 (received at), ISO-8601 UTC. 예: 2026-11-21T01:23:45.000Z'),
  source: z
    .enum(LEAD_ORIGINS)
    .describe('들어온 경로 (source): landing 랜딩 신청(광고 DB), manual 수기 등록(전화·방문), import 파일 가져오기(박람회 명단 등)'),
  name: z.string().describe('이름 (name)'),
  phone: z.string().describe('연락처 (phone): 전체 연락처 제공 키는 숫자만(01012345678), 그 밖의 키는 가린 번호(010-****-5678)'),
  landing: z
    .object({
      id: z.number().int().nullable().describe('랜딩 번호'),
      code: z.string().nullable().describe('랜딩 코드 (landing code)'),
      title: z.string().nullable().describe('랜딩 제목'),
      variant: z.string().optional().describe('A/B 실험의 변형 (A, B …); 실험 중에 접수된 DB에만 있습니다'),
    })
    .describe('접수된 랜딩 (landing); 직접 입력·가져오기 DB는 모두 null'),
  medium: z.string().nullable().describe('매체 (medium), 예: 네이버'),
  answers: z
    .array(z.object({ label: z.string().describe('질문 (label)'), value: z.string().describe('답 (value); 여러 개는 쉼표로 이어서') }))
    .describe('신청 내용 (form answers), 랜딩 폼의 순서대로'),
  utm: z
    .object({ source: utm('source'), medium: utm('medium'), campaign: utm('campaign'), content: utm('content'), term: utm('term') })
    .describe('UTM 매개변수 (UTM parameters)'),
  csStatus: z.string().describe('상담 상태 (status), 예: 미처리, 부재, 상담예약, 계약, 무효, 중복'),
  memo: z.string().nullable().describe('메모 (memo)'),
});
export type PulledLead = z.infer<typeof pulledLead>;
// The pull API answers what every channel's receiver gets (a DeliveredLead with all its fields).
type Same<A, B> = [A] extends [B] ? ([B] extends [Required<A>] ? true : false) : false;
const sameAsDelivered: Same<PulledLead, Required<DeliveredLead>> = true;
void sameAsDelivered;

export const pullLeadsResponse = z.object({
  leads: z.array(pulledLead).describe('피드 순서(feed order)의 DB. 삭제·파기된 DB는 나오지 않습니다.'),
  nextCursor: z.string().describe('다음 요청의 since 값 (opaque cursor). 받은 DB가 없어도 항상 옵니다.'),
  hasMore: z.boolean().describe('바로 이어서 받을 DB가 더 있음 (true면 곧바로 다시 요청)'),
});
export type PullLeadsResponse = z.infer<typeof pullLeadsResponse>;

export const pullApi = {
  /** A page of the shop's leads after the cursor, in feed order (API key: Authorization: Bearer …). */
  leads: endpoint({ method: 'GET', path: '/api/v1/leads', query: pullLeadsQuery, response: pullLeadsResponse }),
  /** The OpenAPI 3.1 document of the public API (generated from these schemas). */
  openapi: endpoint({ method: 'GET', path: '/api/v1/openapi.json', response: z.record(z.string(), z.unknown()) }),
  /** The docs page: authentication, the cursor loop, the fields, errors and limits (HTML, no script). */
  docs: endpoint({ method: 'GET', path: '/api/v1/docs', response: 'html' }),
};
