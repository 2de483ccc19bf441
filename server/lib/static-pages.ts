// Small static Korean pages the public side answers with: unknown (404) and closed (410)
// landings, the no-JavaScript thank-you page and the form error page.
import crypto from 'node:crypto';
import { escapeHtml, landingCsp, withNonce } from '../../contracts/page-safety.ts';
import { tagHosts, tagNoscript, tagScript, type TrackingTag } from '../../contracts/tracking-tags.ts';
import { readableOn } from '../../contracts/contrast.ts';

// As pages/view/render/csp.ts makes them for the landing pages (pages/ and server/ share only contracts/).
const sha256Source = (code: string) => `'sha256-${crypto.createHash('sha256').update(code).digest('base64')}'`;
const newNonce = () => crypto.randomBytes(16).toString('base64url');


const CSS =
  'body{margin:0;font:16px/1.6 -apple-system,BlinkMacSystemFont,"Apple SD Gothic Neo","Malgun Gothic",sans-serif;color:#1f2329;background:#f5f7fb;word-break:keep-all}' +
  'main{max-width:480px;margin:0 auto;padding:56px 20px;text-align:center}h1{font-size:22px;margin:0 0 12px}p{margin:0 0 16px;color:#4e5969}' +
  'ul{text-align:left;color:#c4302b;padding-left:20px}a{display:inline-block;margin-top:8px;padding:12px 20px;border-radius:10px;background:var(--c,#1263dc);color:var(--ct,#fff);text-decoration:none;font-weight:600}';

export const STATIC_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'self'";

function page(title: string, inner: string, opts: { head?: string; tail?: string; color?: string } = {}): string {
  // The button's text follows its staff-chosen colour: white or near-black, whichever reads (WCAG).
  const style = opts.color ? `:root{--c:${opts.color};--ct:${readableOn(opts.color)}}` : '';
  return `<!doctype html><html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>${CSS}${style}</style>${opts.head ?? ''}</head><body><main>${inner}</main>${opts.tail ?? ''}</body></html>`;
}

export const NOT_FOUND_PAGE = page(
  '페이지를 찾을 수 없습니다',
  '<h1>페이지를 찾을 수 없습니다</h1><p>주소가 바뀌었거나 아직 공개되지 않은 페이지입니다. 주소를 다시 확인해 주세요.</p>',
);

export const GONE_PAGE = page(
  '마감된 이벤트입니다',
  '<h1>마감된 이벤트입니다</h1><p>참여해 주셔서 감사합니다. 이 페이지의 신청 접수는 종료되었습니다.</p>',
);

interface ThankYouParts {
  title: string;
  message: string;
  color: string;
  backUrl: string;
  trackingTags: TrackingTag[];
  /** Free-form scripts: empty unless public pages have an origin of their own. */
  headScript: string;
  conversionScript: string;
}

/** The thank-you page of a form posted without the landing's script; it fires the conversions too. */
export function thankYouPage(p: ThankYouParts): { html: string; csp: string } {
  const scripted = !!(p.headScript.trim() || p.conversionScript.trim());
  const nonce = scripted ? newNonce() : undefined;
  // The tags load, then report the conversion once their libraries are in (the load event waits for them).
  const tags = p.trackingTags.length ? `${tagScript(p.trackingTags)}addEventListener('load',function(){lrcv()});` : '';
  const html = page(
    `신청 완료 - ${p.title}`,
    `<h1>신청이 완료되었습니다</h1><p>${escapeHtml(p.message)}</p><a href="${escapeHtml(p.backUrl)}">처음으로</a>`,
    {
      head: (tags ? `<script>${tags}</script>` : '') + (nonce ? withNonce(p.headScript, nonce) : ''),
      tail: tagNoscript(p.trackingTags, 'Lead') + (nonce ? withNonce(p.conversionScript, nonce) : ''),
      color: p.color,
    },
  );
  return { html, csp: landingCsp({ hashes: tags ? [sha256Source(tags)] : [], nonce, hosts: tagHosts(p.trackingTags) }) };
}

/** A refused form post without JavaScript: the reason and a way back. */
export function formErrorPage(message: string, fields: Record<string, string> | undefined, backUrl: string | null): string {
  const list = fields && Object.keys(fields).length ? `<ul>${Object.values(fields).map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '';
  const back = backUrl ? `<a href="${escapeHtml(backUrl)}">돌아가기</a>` : '';
  return page('신청이 접수되지 않았습니다', `<h1>신청이 접수되지 않았습니다</h1><p>${escapeHtml(message)}</p>${list}${back}`);
}
