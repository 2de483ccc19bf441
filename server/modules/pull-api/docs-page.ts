// The pull API's docs page (/api/v1/docs): HTML rendered on the server, no script at all, in
// Korean with the English terms a developer searches for. The prose — authentication, the
// cursor loop, rate limits — is written here; every table of fields, parameters and errors is
// rendered from the OpenAPI document (openapi.ts), itself generated from the zod schemas.
import crypto from 'node:crypto';
import { escapeHtml } from '../../../contracts/page-safety.ts';
import { API_KEY_HEADER, PULL_LIMIT_DEFAULT, PULL_LIMIT_MAX, PULL_RATE_LIMIT, pullApi } from '../../../contracts/pull-api.ts';
import { API_KEY_PREFIX, API_KEY_RANDOM_LENGTH } from '../../../contracts/api-keys.ts';

type Json = Record<string, unknown>;

const STYLE = `
:root { color-scheme: light; --fg: #1f1f1f; --muted: #666; --line: #e5e5e5; --accent: #1668dc; --code: #f6f8fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.7 -apple-system, BlinkMacSystemFont, 'Apple SD Gothic Neo', 'Malgun Gothic', 'Noto Sans KR', sans-serif; color: var(--fg); background: #fff; }
header { background: #0f1e35; color: #fff; padding: 32px 24px; }
header h1 { margin: 0 0 4px; font-size: 24px; }
header p { margin: 0; color: #c9d4e5; }
header a { color: #9cc3ff; }
header code { background: rgba(255, 255, 255, 0.12); color: #fff; }
main { max-width: 980px; margin: 0 auto; padding: 8px 24px 64px; }
nav { margin: 24px 0; padding: 12px 16px; border: 1px solid var(--line); border-radius: 8px; background: #fafafa; }
nav ol { margin: 0; padding-left: 20px; columns: 2; }
h2 { margin: 40px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); font-size: 20px; }
h3 { margin: 24px 0 8px; font-size: 16px; }
code { font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 1px 5px; border-radius: 4px; }
pre { background: var(--code); border: 1px solid var(--line); border-radius: 8px; padding: 14px 16px; overflow-x: auto; }
pre code { padding: 0; background: none; }
table { width: 100%; border-collapse: collapse; margin: 8px 0 16px; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 8px 10px; border-bottom: 1px solid var(--line); }
th { background: #fafafa; font-weight: 600; white-space: nowrap; }
td.name { white-space: nowrap; }
.muted { color: var(--muted); }
.note { border-left: 4px solid var(--accent); background: #f0f6ff; padding: 10px 14px; border-radius: 4px; }
.warn { border-left-color: #d46b08; background: #fff7e6; }
.tag { display: inline-block; font-size: 12px; padding: 0 6px; border-radius: 4px; background: #f0f0f0; color: #555; }
`;

/** The page allows its own style block and nothing else: no script, no outside resource, no frames. */
export const DOCS_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const e = (s: unknown) => escapeHtml(String(s ?? ''));

interface Row {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

function resolve(doc: Json, schema: Json): Json {
  const r = schema.$ref;
  if (typeof r !== 'string') return schema;
  const name = r.replace('#/components/schemas/', '');
  return ((doc.components as Json).schemas as Json)[name] as Json;
}

function typeOf(doc: Json, schema: Json): string {
  const s = resolve(doc, schema);
  if (Array.isArray(s.anyOf)) return (s.anyOf as Json[]).map((x) => typeOf(doc, x)).join(' | ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : [String(s.type ?? 'any')];
  return types.map((t) => (t === 'array' && s.items ? `array<${typeOf(doc, s.items as Json)}>` : t)).join(' | ');
}

/** An object schema's fields, nested objects and arrays of objects flattened (landing.code, answers[].label). */
function fieldRows(doc: Json, schema: Json, prefix = ''): Row[] {
  const s = resolve(doc, schema);
  const required = new Set((s.required as string[] | undefined) ?? []);
  const out: Row[] = [];
  for (const [name, raw] of Object.entries((s.properties as Record<string, Json> | undefined) ?? {})) {
    const field = resolve(doc, raw);
    const full = `${prefix}${name}`;
    out.push({ name: full, type: typeOf(doc, raw), required: required.has(name), description: String(field.description ?? '') });
    if (field.type === 'object') out.push(...fieldRows(doc, field, `${full}.`));
    const items = field.items as Json | undefined;
    if (field.type === 'array' && items && resolve(doc, items).type === 'object' && !items.$ref) out.push(...fieldRows(doc, items, `${full}[].`));
  }
  return out;
}

function fieldTable(rows: Row[]): string {
  return `<table><thead><tr><th>필드 (field)</th><th>타입 (type)</th><th>설명 (description)</th></tr></thead><tbody>${rows
    .map((r) => `<tr><td class="name"><code>${e(r.name)}</code>${r.required ? '' : ' <span class="tag">선택</span>'}</td><td><code>${e(r.type)}</code></td><td>${e(r.description)}</td></tr>`)
    .join('')}</tbody></table>`;
}

function paramTable(params: Json[]): string {
  return `<table><thead><tr><th>매개변수 (parameter)</th><th>타입</th><th>기본값 (default)</th><th>설명</th></tr></thead><tbody>${params
    .map((p) => {
      const schema = p.schema as Json;
      const range = schema.minimum !== undefined && schema.maximum !== undefined ? `${schema.minimum}–${schema.maximum}` : '';
      return `<tr><td class="name"><code>${e(p.name)}</code>${p.required ? '' : ' <span class="tag">선택</span>'}</td><td class="name"><code>${e(schema.type)}</code>${range ? ` <span class="muted">${e(range)}</span>` : ''}</td><td>${schema.default !== undefined ? `<code>${e(schema.default)}</code>` : '-'}</td><td>${e(p.description)}</td></tr>`;
    })
    .join('')}</tbody></table>`;
}

function errorTable(responses: Record<string, Json>): string {
  const rows = Object.entries(responses).filter(([status]) => status !== '200');
  return `<table><thead><tr><th>HTTP 상태</th><th>error.code</th><th>뜻과 할 일</th></tr></thead><tbody>${rows
    .map(([status, r]) => {
      const [code, ...rest] = String(r.description).split(': ');
      return `<tr><td><code>${e(status)}</code></td><td><code>${e(code)}</code></td><td>${e(rest.join(': '))}</td></tr>`;
    })
    .join('')}</tbody></table>`;
}

const pre = (code: string) => `<pre><code>${e(code.trim())}</code></pre>`;

/** The examples the page shows: the calls (curl, a bash loop, Node.js) and two responses. */
function samples(origin: string, url: string) {
  const curlFirst = `
curl -sS "${url}?limit=${PULL_LIMIT_DEFAULT}" \\
  -H "Authorization: Bearer $LEADROOM_API_KEY"`;
  const curlNext = `
curl -sS "${url}?since=<직전 응답의 nextCursor>&limit=${PULL_LIMIT_DEFAULT}" \\
  -H "Authorization: Bearer $LEADROOM_API_KEY"`;
  const bashLoop = `
#!/usr/bin/env bash
# 커서를 파일에 두고, 끝까지(hasMore=false) 받아 leads.jsonl에 이어 씁니다. (requires curl, jq)
set -euo pipefail
cursor=$(cat cursor.txt 2>/dev/null || true)
while :; do
  page=$(curl -fsS "${url}?limit=${PULL_LIMIT_MAX}&since=$cursor" \
    -H "Authorization: Bearer $LEADROOM_API_KEY")
  # 1) 먼저 DB를 저장하고
  echo "$page" | jq -c '.leads[]' >> leads.jsonl
  # 2) 그다음 커서를 남깁니다 (중간에 멈추면 이 커서부터 다시)
  cursor=$(echo "$page" | jq -r '.nextCursor')
  echo "$cursor" > cursor.txt
  [ "$(echo "$page" | jq -r '.hasMore')" = "true" ] || break
done`;
  const nodeLoop = `
// Node.js 18+ (fetch 내장). loadCursor·storeCursor·upsertLead는 업체 시스템의 함수입니다:
// 커서는 DB나 파일에 보관하고, DB는 id로 저장(upsert)하세요.
const ORIGIN = '${origin}';
const KEY = process.env.LEADROOM_API_KEY;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** cursor 뒤의 DB를 끝까지 받아 save()에 넘기고, 마지막 커서를 돌려줍니다. */
async function pullAll(cursor, save) {
  for (;;) {
    const url = new URL('${pullApi.leads.path}', ORIGIN);
    url.searchParams.set('limit', '${PULL_LIMIT_MAX}');
    if (cursor) url.searchParams.set('since', cursor);
    const res = await fetch(url, { headers: { Authorization: \`Bearer \${KEY}\` } });
    if (res.status === 429 || res.status >= 500) {
      // 같은 커서로 다시 보내면 같은 페이지가 옵니다 (the same cursor returns the same page).
      await sleep(Number(res.headers.get('retry-after') ?? 5) * 1000);
      continue;
    }
    if (!res.ok) throw new Error(\`\${res.status} \${(await res.json()).error.message}\`);
    const page = await res.json();
    for (const lead of page.leads) await save(lead); // lead.id로 중복 없이 저장 (upsert by id)
    cursor = page.nextCursor;                         // 저장한 뒤에 커서를 보관
    await storeCursor(cursor);
    if (!page.hasMore) return cursor;
  }
}

// 1분마다: 새 DB가 있으면 받아 갑니다.
let cursor = await loadCursor();
for (;;) {
  cursor = await pullAll(cursor, upsertLead);
  await sleep(60_000);
}`;

  const response200 = `
HTTP/1.1 200 OK
Content-Type: application/json; charset=utf-8
X-RateLimit-Limit: ${PULL_RATE_LIMIT.max}
X-RateLimit-Remaining: 59

{
  "leads": [
    {
      "id": 1042,
      "receivedAt": "2026-11-21T01:23:45.000Z",
      "source": "landing",
      "name": "홍길동",
      "phone": "010-****-5678",
      "landing": { "id": 7, "code": "implant", "title": "임플란트 상담 이벤트", "variant": "B" },
      "medium": "네이버",
      "answers": [{ "label": "지역", "value": "서울" }],
      "utm": { "source": "naver", "medium": "cpc", "campaign": "implant_11", "content": null, "term": null },
      "csStatus": "미처리",
      "memo": null
    }
  ],
  "nextCursor": "MTA0Mg",
  "hasMore": false
}`;
  const response401 = `
HTTP/1.1 401 Unauthorized
WWW-Authenticate: Bearer realm="leadroom"

{
  "error": {
    "code": "UNAUTHENTICATED",
    "message": "폐기된 API 키입니다. DB 전송 설정에서 새 키를 발급하세요. (This API key has been revoked.)"
  }
}`;
  return { curlFirst, curlNext, bashLoop, nodeLoop, response200, response401 };
}

/** The docs page of `doc` (openApiDocument() with its server), as a request to `origin` sees it. */
export function docsPage(doc: Json, origin: string): string {
  const op = ((doc.paths as Json)[pullApi.leads.path] as Json).get as Json;
  const responses = op.responses as Record<string, Json>;
  const url = `${origin}${pullApi.leads.path}`;
  const sampleKey = `${API_KEY_PREFIX}${'x'.repeat(API_KEY_RANDOM_LENGTH)}`;

  const { curlFirst, curlNext, bashLoop, nodeLoop, response200, response401 } = samples(origin, url);

  const schemas = (doc.components as Json).schemas as Json;
  const sections: Array<[string, string, string]> = [
    ['overview', '개요 (Overview)', `
<p>업체의 DB(lead)를 업체 시스템(CRM, 사내 DB 등)으로 가져가는 읽기 전용 API입니다. 웹훅(webhook)처럼 저희가 보내는 대신,
업체 시스템이 원하는 때에 <code>GET ${e(pullApi.leads.path)}</code>를 불러 새 DB를 가져갑니다.</p>
<ul>
  <li>키 하나는 <strong>한 업체</strong>의 DB만 봅니다. 다른 업체의 DB는 어떤 경우에도 나오지 않습니다.</li>
  <li>DB는 <strong>피드 순서(feed order)</strong>로 옵니다: 저장이 끝난(commit) 순서로 매긴 번호입니다. 커서로 끝까지 반복하면 모든 DB를 <strong>빠짐없이, 한 번씩</strong> 받습니다.
      늦게 저장된 DB도 앞 페이지로 끼어들지 않습니다.</li>
  <li>삭제·파기된 DB는 나오지 않습니다. 이미 받아 간 DB가 나중에 삭제되어도 다시 알려 드리지는 않습니다.</li>
  <li>각 DB는 한 번만 옵니다: <code>csStatus</code>·<code>memo</code>는 가져간 때의 값이고, 그 뒤의 변경은 다시 오지 않습니다.</li>
  <li>기계가 읽는 명세: <a href="openapi.json"><code>${e(pullApi.openapi.path)}</code></a> (OpenAPI 3.1). 코드 생성기(openapi-generator 등)에 그대로 쓸 수 있습니다.</li>
</ul>`],
    ['auth', '인증 (Authentication)', `
<p>백오피스의 <strong>DB 전송 설정 › API 키</strong>에서 키를 발급합니다. 키는 <code>${e(API_KEY_PREFIX)}</code>로 시작하는 ${API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH}자이고,
<strong>발급할 때 한 번만</strong> 보여 드립니다(저희는 해시(SHA-256)만 보관합니다). 잃어버리면 폐기하고 새로 발급하세요.</p>
${pre(`Authorization: Bearer ${sampleKey}`)}
<p>Authorization 헤더를 쓸 수 없는 환경이면 <code>${e(API_KEY_HEADER)}: ${e(sampleKey)}</code> 헤더도 됩니다. 키를 URL(쿼리 문자열)에 넣지 마세요: 로그에 남습니다.</p>
<div class="note"><strong>연락처 (phone)</strong>: 발급할 때 <em>전체 연락처 제공</em>을 켠 키만 전체 번호(숫자만, <code>01012345678</code>)를 받습니다.
그 밖의 키는 가린 번호(<code>010-****-5678</code>)를 받습니다. 전체 번호를 주는 키의 발급과 폐기는 감사 기록에 남고, DB를 받아 간 요청마다 업체의 개인정보 접근 기록에 <em>외부 API 조회</em>로 남습니다.</div>
<p>폐기(revoke)한 키는 바로 <code>401</code>을 받습니다. 키가 새어 나갔다고 생각되면 새 키를 발급해 바꾼 뒤 옛 키를 폐기하세요.</p>`],
    ['loop', '커서 반복 (The cursor loop)', `
<ol>
  <li>처음에는 <code>since</code> 없이 부릅니다: 가장 오래된 DB부터 옵니다.</li>
  <li>응답의 <code>leads</code>를 저장하고(<code>id</code>로 중복 없이), 그다음 <code>nextCursor</code>를 보관합니다.</li>
  <li><code>hasMore</code>가 <code>true</code>면 곧바로 <code>since=nextCursor</code>로 다시 부릅니다. <code>false</code>면 다 받은 것이니 잠시(예: 1분) 쉬었다가 같은 커서로 다시 부릅니다.</li>
</ol>
<p>커서(cursor)는 불투명한 문자열(opaque string)입니다: 뜻을 해석하거나 만들어 쓰지 말고 받은 그대로 보내세요. 같은 커서는 같은 페이지를 돌려주므로,
요청이 실패하거나 저장 중에 멈췄다면 <strong>마지막으로 보관한 커서로 다시</strong> 부르면 됩니다. 받은 DB가 없어도 <code>nextCursor</code>는 항상 옵니다.</p>
<h3>curl</h3>
${pre(curlFirst)}
${pre(curlNext)}
<h3>끝까지 받기 (bash + jq)</h3>
${pre(bashLoop)}
<h3>Node.js (fetch)</h3>
${pre(nodeLoop)}
<h3>응답 예 (example response)</h3>
${pre(response200)}`],
    ['fields', 'DB 필드 (Lead fields)', `
<p>각 DB에는 아래 필드가 모두 옵니다. 값이 없으면 <code>null</code>입니다. 앞으로 필드가 <strong>늘어날 수 있으니</strong> 모르는 필드는 무시하도록 만들어 주세요.</p>
${fieldTable(fieldRows(doc, schemas.Lead as Json))}`],
    ['request', '요청 (Request)', `
<p><code>GET ${e(pullApi.leads.path)}</code></p>
${paramTable(op.parameters as Json[])}
<h3>응답 (Response, 200)</h3>
${fieldTable(fieldRows(doc, schemas.LeadPage as Json).filter((r) => !r.name.startsWith('leads[].')))}`],
    ['errors', '오류 (Errors)', `
<p>오류는 모두 같은 모양의 JSON입니다: <code>{ "error": { "code": "…", "message": "…" } }</code>. <code>message</code>는 한국어와 영어로 씁니다. 프로그램에서는 <code>code</code>로 구분하세요.</p>
${errorTable(responses)}
${pre(response401)}`],
    ['limits', '속도 제한 (Rate limits)', `
<p>키마다 <strong>분당 ${PULL_RATE_LIMIT.max}회</strong>까지 부를 수 있습니다. 한 번에 최대 ${PULL_LIMIT_MAX}건을 받으므로, 밀린 DB도 분당 ${(PULL_RATE_LIMIT.max * PULL_LIMIT_MAX).toLocaleString('ko-KR')}건까지 따라잡습니다.
응답 헤더 <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code>, <code>X-RateLimit-Reset</code>(초)로 남은 양을 볼 수 있고,
넘으면 <code>429</code>와 <code>Retry-After</code>(초)가 옵니다. 새 DB를 기다릴 때는 1분 정도 간격이면 충분합니다: 즉시 받아야 하면 웹훅(webhook) 채널을 함께 쓰세요.</p>`],
  ];

  return `<!doctype html>
<html lang="ko">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>DB 가져오기 API 문서 (Leadroom Pull API)</title>
<style>${STYLE}</style>
</head>
<body>
<header>
  <h1>DB 가져오기 API <span class="muted">· Leadroom Pull API v1</span></h1>
  <p>${e(String((doc.info as Json).description ?? ''))}</p>
  <p>서버 (server): <code>${e(origin)}</code> · OpenAPI: <a href="openapi.json">openapi.json</a></p>
</header>
<main>
<nav><ol>${sections.map(([id, title]) => `<li><a href="#${id}">${e(title)}</a></li>`).join('')}</ol></nav>
${sections.map(([id, title, body]) => `<section id="${id}"><h2>${e(title)}</h2>${body}</section>`).join('\n')}
</main>
</body>
</html>`;
}
