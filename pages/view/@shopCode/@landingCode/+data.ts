import type { PageContextServer } from 'vike/types';

export async function data(pageContext: PageContextServer) {
  return { title: `${pageContext.routeParams.shopCode}/${pageContext.routeParams.landingCode}` };
}
