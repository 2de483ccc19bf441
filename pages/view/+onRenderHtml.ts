// HTML-only pages: the Page rendered to static markup inside our own document (inline CSS,
// one inline script, the staff's configured scripts, a CSP). No client JavaScript.
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { dangerouslySkipEscape } from 'vike/server';
import type { PageContextServer } from 'vike/types';
import type { PageData } from './page-data.ts';
import { landingDocument, privacyDocument } from './render/document.tsx';

export function onRenderHtml(pageContext: PageContextServer) {
  const data = pageContext.data as PageData;
  const Page = pageContext.Page as ComponentType<{ view: PageData['view'] }>;
  const body = renderToStaticMarkup(createElement(Page, { view: data.view }));
  return dangerouslySkipEscape(data.kind === 'landing' ? landingDocument(data.view, body) : privacyDocument(data.view, body));
}
