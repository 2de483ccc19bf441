// npm run smoke:static — serves dist/client with `serve`, the way a CDN would, and checks
// every pre-rendered landing and privacy page (run `npm run prerender` first): status 200,
// HTML, the form posting to the intake endpoint, the privacy link, and no <script> but our
// inline one and the staff-configured ones (which carry the page's CSP nonce).
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, startServe } from './bench-kit.ts';
import { INLINE_SCRIPT } from '../pages/view/render/inline-script.ts';

const root = path.join(process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : path.join(ROOT, 'dist'), 'client');

function pagesUnder(dir: string, prefix: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return pagesUnder(path.join(dir, e.name), `${prefix}/${e.name}`);
    return e.name === 'index.html' ? [prefix] : [];
  });
}

/** Problems with one page's HTML; empty when it is fine. */
function checkPage(url: string, html: string): string[] {
  const problems: string[] = [];
  const privacy = url.endsWith('/privacy');
  const landing = privacy ? url.slice(0, -'/privacy'.length) : url;
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1];
  if (!html.startsWith('<!DOCTYPE html>')) problems.push('not an HTML document');
  if (!csp) problems.push('no Content-Security-Policy');
  const nonce = csp && /&#39;nonce-([\w-]+)&#39;/.exec(csp)?.[1];
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  const foreign = scripts.filter(([, attrs, body]) => !(attrs === '' && body === INLINE_SCRIPT) && !(nonce && attrs!.includes(`nonce="${nonce}"`)));
  if (foreign.length) problems.push(`${foreign.length} script tag(s) that are neither ours nor configured`);
  if ((html.match(/<script\b/gi) ?? []).length !== scripts.length) problems.push('unbalanced <script> tags');
  if (privacy) {
    if (!html.includes('<h1>개인정보 처리방침</h1>')) problems.push('no privacy policy heading');
    if (scripts.length) problems.push('scripts on the privacy page');
    if (!html.includes(`href="${landing}"`)) problems.push('no link back to the landing');
  } else {
    if (!/<form id="f" action="\/api\/public\/leads" method="post">/.test(html)) problems.push('no form posting to /api/public/leads');
    if (!html.includes('name="name"') || !html.includes('name="phone"') || !html.includes('name="privacyConsent"')) problems.push('form fields missing');
    if (!html.includes(`href="${landing}/privacy"`)) problems.push('no privacy policy link');
    if (!scripts.some(([, attrs, body]) => attrs === '' && body === INLINE_SCRIPT)) problems.push('inline script missing');
  }
  return problems;
}

async function main() {
  const pages = pagesUnder(path.join(root, 'view'), '/view');
  if (!pages.length) {
    console.error(`${path.relative(ROOT, root)}/view 에 미리 만든 페이지가 없습니다. 먼저 \`npm run prerender\`를 실행하세요.`);
    process.exit(1);
  }
  const serve = await startServe(root, 4320);
  let failed = 0;
  try {
    for (const url of pages.sort()) {
      const res = await fetch(serve.url + url, { redirect: 'manual' });
      const html = await res.text();
      const problems = res.status === 200 ? checkPage(url, html) : [`status ${res.status}`];
      if (!(res.headers.get('content-type') ?? '').startsWith('text/html')) problems.push(`content-type ${res.headers.get('content-type')}`);
      for (const m of html.matchAll(/src="(\/uploads\/[^"]+)"/g)) {
        const img = await fetch(serve.url + m[1]);
        await img.arrayBuffer();
        if (img.status !== 200) problems.push(`${m[1]}: ${img.status}`);
      }
      console.log(`${problems.length ? '✗' : '✓'} ${url}${problems.length ? ` — ${problems.join('; ')}` : ''}`);
      if (problems.length) failed++;
    }
  } finally {
    await serve.stop();
  }
  console.log(failed ? `\n${failed}/${pages.length}개 페이지에 문제가 있습니다.` : `\n${pages.length}개 페이지 모두 정상입니다.`);
  process.exitCode = failed ? 1 : 0;
}

await main();
