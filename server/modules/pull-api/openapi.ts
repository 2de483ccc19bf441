// The OpenAPI 3.1 document of the public API (only /api/v1/, never the back office), generated
// from the zod schemas the route itself validates and answers with (contracts/pull-api.ts): the
// query becomes the parameters, the answer and the error shape become components. What the
// schemas cannot say — the summary, authentication, what each status means — is written here,
// once; the docs page (docs-page.ts) renders its tables from this document.
import { registry, toJSONSchema } from 'zod';
import { errorResponse } from '../../../contracts/errors.ts';
import {
  API_KEY_HEADER, PULL_LIMIT_MAX, PULL_RATE_LIMIT, pullApi, pulledLead, pullLeadsResponse,
} from '../../../contracts/pull-api.ts';

type Json = Record<string, unknown>;

/** The statuses the pull answers besides 200, with the error code each carries. */
const PULL_ERRORS: ReadonlyArray<{ status: number; code: string; description: string }> = [
  { status: 400, code: 'VALIDATION', description: '커서(since)나 limit이 올바르지 않습니다. 커서는 직전 응답의 nextCursor를 그대로 보내세요. (Invalid cursor or limit.)' },
  { status: 401, code: 'UNAUTHENTICATED', description: 'API 키가 없거나, 올바르지 않거나, 폐기되었습니다. (Missing, invalid or revoked API key.)' },
  { status: 403, code: 'FORBIDDEN', description: '업체가 사용 중지되었습니다. (The shop is disabled.)' },
  { status: 429, code: 'RATE_LIMITED', description: `요청이 너무 많습니다: 키마다 분당 ${PULL_RATE_LIMIT.max}회. Retry-After 초만큼 기다렸다가 다시 보내세요. (Rate limited.)` },
  { status: 500, code: 'INTERNAL', description: '서버 오류입니다. 같은 커서로 잠시 후 다시 보내세요. (Server error: retry with the same cursor.)' },
];

const SAFE_INT = Number.MAX_SAFE_INTEGER;

/**
 * The generated schemas made plain for readers: no per-schema `$schema`/`$id`, no ±2^53 bounds
 * zod gives every integer, and answers open to new fields (adding a field is not a breaking change).
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$schema' || k === '$id') continue;
    if ((k === 'minimum' && v === -SAFE_INT) || (k === 'maximum' && v === SAFE_INT)) continue;
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = tidy(v);
  }
  return out;
}

const json = (schema: Json) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const RATE_HEADERS = {
  'x-ratelimit-limit': { description: '이 키의 분당 허용 요청 수', schema: { type: 'integer' } },
  'x-ratelimit-remaining': { description: '남은 요청 수', schema: { type: 'integer' } },
  'x-ratelimit-reset': { description: '한도가 다시 채워지기까지 남은 초', schema: { type: 'integer' } },
};

/** The document, without `servers` (the origin a request came to is added per request). */
export function openApiDocument(): Json {
  const schemas = registry<{ id: string }>();
  schemas.add(pulledLead, { id: 'Lead' });
  schemas.add(pullLeadsResponse, { id: 'LeadPage' });
  schemas.add(errorResponse, { id: 'Error' });
  const components = tidy(toJSONSchema(schemas, { uri: (id) => `#/components/schemas/${id}` }).schemas) as Json;

  const query = tidy(toJSONSchema(pullApi.leads.query, { io: 'input' })) as { properties: Record<string, Json>; required?: string[] };
  const parameters = Object.entries(query.properties).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return { name, in: 'query', required: query.required?.includes(name) ?? false, description, schema: rest };
  });

  return {
    openapi: '3.1.0',
    info: {
      title: 'Leadroom Pull API',
      version: '1',
      description:
        '업체의 DB(lead)를 업체 시스템(CRM 등)으로 가져가는 API입니다. DB 전송 설정 › API 키에서 발급한 키로 인증하고, ' +
        'since 커서로 끝까지 반복해 받습니다. 각 DB는 정확히 한 번, 피드 순서(feed order)로 옵니다.',
    },
    paths: {
      [pullApi.leads.path]: {
        get: {
          operationId: 'listLeads',
          summary: 'DB 목록 가져오기 (pull leads after a cursor)',
          description:
            `커서(since) 뒤의 DB를 피드 순서로 최대 limit건(1–${PULL_LIMIT_MAX}) 돌려줍니다. 응답의 nextCursor를 다음 요청의 since로 보내고, ` +
            'hasMore가 false가 될 때까지 반복하세요. 같은 커서는 같은 페이지를 돌려주므로, 실패하면 같은 커서로 다시 보내면 됩니다.',
          security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
          parameters,
          responses: {
            200: { description: 'DB 한 페이지 (a page of leads)', headers: RATE_HEADERS, content: json(ref('LeadPage')) },
            ...Object.fromEntries(PULL_ERRORS.map((e) => [e.status, { description: `${e.code}: ${e.description}`, content: json(ref('Error')) }])),
          },
        },
      },
    },
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer lr_live_… (DB 전송 설정 › API 키에서 발급)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'Authorization 헤더를 쓸 수 없을 때' },
      },
    },
  };
}

/** The document as served to a request that came to `origin`. */
export function withServer(doc: Json, origin: string): Json {
  const { openapi, info, ...rest } = doc;
  return { openapi, info, servers: [{ url: origin, description: '이 서버 (this server)' }], ...rest };
}
