// Every API route declares who may call it; the administrator routes name their screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { testApp, type TestApp } from './test-helpers.ts';
import type { RouteAccess } from './plugins/route.ts';
import { findScreen } from '../contracts/screens.ts';

const routes: RouteOptions[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await testApp({}, { onRoute: (r) => routes.push(r) });
});
afterAll(async () => {
  await t.close();
});

const accessOf = (r: RouteOptions) => (r.config as { access?: RouteAccess } | undefined)?.access;
const methods = (r: RouteOptions) => (Array.isArray(r.method) ? r.method : [r.method]);
const find = (method: string, url: string) => routes.find((r) => r.url === url && methods(r).includes(method));

/** [method, url, screen, action] of the administrator screens' routes. */
const ADMIN_ROUTES: Array<[string, string, string, 'read' | 'write']> = [
  ['GET', '/api/account-types', 'account-type-setting', 'read'],
  ['POST', '/api/account-types', 'account-type-setting', 'write'],
  ['PUT', '/api/account-types/:id', 'account-type-setting', 'write'],
  ['DELETE', '/api/account-types/:id', 'account-type-setting', 'write'],
  ['GET', '/api/permissions', 'permission-setting', 'read'],
  ['PUT', '/api/permissions/:id', 'permission-setting', 'write'],
  ['GET', '/api/accounts', 'account-setting', 'read'],
  ['POST', '/api/accounts', 'account-setting', 'write'],
  ['PUT', '/api/accounts/:id', 'account-setting', 'write'],
  ['POST', '/api/accounts/:id/reset-password', 'account-setting', 'write'],
  ['POST', '/api/accounts/:id/unlock', 'account-setting', 'write'],
  ['POST', '/api/accounts/:id/lock', 'account-setting', 'write'],
  ['GET', '/api/shops', 'client-setting', 'read'],
  ['POST', '/api/shops', 'client-setting', 'write'],
  ['PUT', '/api/shops/:id', 'client-setting', 'write'],
  ['DELETE', '/api/shops/:id', 'client-setting', 'write'],
  ['GET', '/api/shops/:shopId/base-information', 'base-information', 'read'],
  ['PUT', '/api/shops/:shopId/base-information', 'base-information', 'write'],
  ['GET', '/api/shop-permissions', 'shop-permission-setting', 'read'],
  ['PUT', '/api/shop-permissions/:accountId', 'shop-permission-setting', 'write'],
  ['GET', '/api/deny-rules', 'access-deny-setting', 'read'],
  ['POST', '/api/deny-rules', 'access-deny-setting', 'write'],
  ['PUT', '/api/deny-rules/:id', 'access-deny-setting', 'write'],
  ['DELETE', '/api/deny-rules/:id', 'access-deny-setting', 'write'],
];

describe('route table', () => {
  it('has no /api route without a declared access rule', () => {
    const api = routes.filter((r) => r.url.startsWith('/api'));
    expect(api.length).toBeGreaterThan(ADMIN_ROUTES.length);
    const missing = api.filter((r) => !accessOf(r)).map((r) => `${methods(r).join(',')} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('names only catalogue screens, and a `:shopId` wherever a route is shop-scoped', () => {
    for (const r of routes) {
      const access = accessOf(r);
      if (!access || !('screen' in access)) continue;
      const screens = typeof access.screen === 'string' ? [access.screen] : access.screen;
      for (const s of screens) expect(findScreen(s), `${r.url} → ${s}`).toBeDefined();
      if (access.shop) expect(r.url, r.url).toContain(':shopId');
    }
  });

  it('guards the administrator routes with their screen permission', () => {
    for (const [method, url, screen, action] of ADMIN_ROUTES) {
      const r = find(method, url);
      expect(r, `${method} ${url}`).toBeDefined();
      expect(accessOf(r!), `${method} ${url}`).toMatchObject({ screen, action });
    }
  });

  it('leaves only login and health public', () => {
    const open = routes.filter((r) => r.url.startsWith('/api') && accessOf(r) && 'public' in accessOf(r)!);
    const names = [...new Set(open.map((r) => r.url))];
    expect(names.filter((u) => !u.startsWith('/api/public/')).sort()).toEqual(['/api/auth/login', '/api/health']);
  });
});
