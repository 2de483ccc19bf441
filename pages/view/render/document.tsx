// Whole HTML documents for the public pages. Vike's onRenderHtml hook (pages/view/+onRenderHtml.ts)
// wraps the rendered Page with these; renderLanding()/renderPrivacy() do the same without
// Vike's router for tests and for a server started without a build.
import { renderToStaticMarkup } from 'react-dom/server';
import { landingPath, type PrivacyPageView } from '../../../contracts/landings.ts';
import { cspOrigin, escapeHtml, landingCsp, withNonce } from '../../../contracts/page-safety.ts';
import { newNonce, sha256Source } from './csp.ts';
import { INLINE_SCRIPT } from './inline-script.ts';
import { tagHosts, tagNoscript, tagScript } from '../../../contracts/tracking-tags.ts';
import { landingCss, privacyCss } from './style.ts';
import { LandingBody, safeUrl } from './landing-body.tsx';
import { PrivacyBody } from './privacy-body.tsx';
import { heroPreload, type LandingPageView } from './picture.tsx';

const INLINE_HASH = sha256Source(INLINE_SCRIPT);

interface DocumentParts {
  title: string;
  /** The page's one URL for search engines and link previews (an experiment's variants name their landing's). */
  canonical?: string;
  description?: string;
  image?: string;
  css: string;
  csp: string;
  /** Resource hints of our own (the hero's responsive preload), before the styles. */
  preload?: string;
  head?: string;
  body: string;
}

function htmlDocument(p: DocumentParts): string {
  // React hoists resource hints (the hero's preload) to the start of the markup: they belong in <head>.
  const hints = /^(?:<link [^>]*>)+/.exec(p.body)?.[0] ?? '';
  const meta = [
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(p.csp)}">`,
    `<title>${escapeHtml(p.title)}</title>`,
    p.canonical ? `<link rel="canonical" href="${escapeHtml(p.canonical)}">` : '',
    `<meta property="og:title" content="${escapeHtml(p.title)}">`,
    p.description ? `<meta name="description" content="${escapeHtml(p.description)}"><meta property="og:description" content="${escapeHtml(p.description)}">` : '',
    p.image ? `<meta property="og:image" content="${escapeHtml(p.image)}">` : '',
  ].join('');
  return (
    `<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">` +
    `${meta}${hints}${p.preload ?? ''}<style>${p.css}</style>${p.head ?? ''}</head><body>${p.body.slice(hints.length)}</body></html>`
  );
}

const summary = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 120);

/** The landing document around an already rendered body (the Page). */
export function landingDocument(view: LandingPageView, bodyHtml: string): string {
  const l = view.landing;
  const scripts = view.preview ? { head: '', body: '', conversion: '' } : { head: l.headScript.trim(), body: l.bodyScript.trim(), conversion: l.conversionScript.trim() };
  const tags = view.preview ? [] : l.trackingTags;
  const tagCode = tagScript(tags);
  const nonce = scripts.head || scripts.body || scripts.conversion ? newNonce() : undefined;
  const redirect = cspOrigin(safeUrl(l.thankYouUrl) ?? null);
  const csp = view.preview
    ? landingCsp({ hashes: [] }).replace("form-action 'self'", "form-action 'none'")
    : landingCsp({
        hashes: tagCode ? [INLINE_HASH, sha256Source(tagCode)] : [INLINE_HASH],
        hosts: tagHosts(tags),
        nonce,
        formTargets: redirect ? [redirect] : [],
      });
  const nonced = (s: string) => (nonce && s ? withNonce(s, nonce) : '');
  const hero = l.content.hero && safeUrl(l.content.hero.url);
  return htmlDocument({
    title: l.content.headline,
    canonical: view.preview || !view.origin ? undefined : `${view.origin}${landingPath(view.shop.code, l.code)}`,
    description: summary(l.content.subheadline || l.content.body) || undefined,
    image: hero && hero.startsWith('http') ? hero : undefined,
    css: landingCss(l.content.colors),
    csp,
    preload: heroPreload(view),
    head: (tagCode ? `<script>${tagCode}</script>` : '') + nonced(scripts.head),
    body:
      bodyHtml +
      tagNoscript(tags, 'PageView') +
      nonced(scripts.body) +
      (scripts.conversion ? `<template id="cv">${nonced(scripts.conversion)}</template>` : '') +
      (view.preview ? '' : `<script>${INLINE_SCRIPT}</script>`),
  });
}

export function privacyDocument(view: PrivacyPageView, bodyHtml: string): string {
  return htmlDocument({
    title: `개인정보 처리방침 - ${view.shop.name}`,
    css: privacyCss(),
    csp: landingCsp({ hashes: [] }),
    body: bodyHtml,
  });
}

export const renderLanding = (view: LandingPageView) => landingDocument(view, renderToStaticMarkup(<LandingBody view={view} />));
export const renderPrivacy = (view: PrivacyPageView) => privacyDocument(view, renderToStaticMarkup(<PrivacyBody view={view} />));
export { INLINE_SCRIPT };
