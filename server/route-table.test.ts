// Every API route declares who may call it; the administrator routes name their screen; no client
// account reaches what only the agency may do, whatever its type's matrix says.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteOptions } from 'fastify';
import { TEST_PASSWORD, createAccount, createShop, testApp, type Client, type TestApp } from './test-helpers.ts';
import type { RouteAccess } from './plugins/route.ts';
import { findScreen } from '../contracts/screens.ts';
import { sideAllows, uniformMatrix } from '../contracts/permissions.ts';
import type { Endpoint } from '../contracts/endpoint.ts';
import { accountTypesApi, permissionsApi } from '../contracts/account-types.ts';
import { accountsApi } from '../contracts/accounts.ts';
import { shopsApi } from '../contracts/shops.ts';
import { shopPermissionsApi } from '../contracts/shop-permissions.ts';
import { denyRulesApi } from '../contracts/deny-rules.ts';
import { leadsApi } from '../contracts/leads.ts';
import { leadSlaApi } from '../contracts/lead-sla.ts';
import { leadCalendarApi } from '../contracts/lead-calendar.ts';
import { shopDashboardApi } from '../contracts/shop-dashboard.ts';
import { allocationApi } from '../contracts/allocation.ts';
import { csStatsApi } from '../contracts/cs-stats.ts';
import { leadDeletionApi } from '../contracts/lead-deletion.ts';
import { globalSearchApi } from '../contracts/global-search.ts';
import { accessRecordApi } from '../contracts/access-record.ts';
import { leadExportApi } from '../contracts/lead-export.ts';
import { dataInsertionApi } from '../contracts/data-insertion.ts';
import { authApi } from '../contracts/auth.ts';
import { healthApi } from '../contracts/health.ts';
import { dashboardApi } from '../contracts/dashboard.ts';
import { adSpendApi } from '../contracts/ad-spend.ts';
import { shopContractsApi } from '../contracts/shop-contracts.ts';
import { cpaApi } from '../contracts/cpa.ts';
import { deliveryChannelsApi } from '../contracts/delivery-channels.ts';
import { deliveryApi } from '../contracts/delivery-history.ts';
import { systemReservationsApi } from '../contracts/system-reservations.ts';
import { apiKeysApi } from '../contracts/api-keys.ts';
import { pullApi } from '../contracts/pull-api.ts';

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

/** [endpoint, screen, action] of the administrator screens' routes. */
const ADMIN_ROUTES: Array<[Endpoint, string | string[], 'read' | 'write']> = [
  [accountTypesApi.list, 'account-type-setting', 'read'],
  [accountTypesApi.create, 'account-type-setting', 'write'],
  [accountTypesApi.update, 'account-type-setting', 'write'],
  [accountTypesApi.remove, 'account-type-setting', 'write'],
  [permissionsApi.list, 'permission-setting', 'read'],
  [permissionsApi.update, 'permission-setting', 'write'],
  [accountsApi.list, 'account-setting', 'read'],
  [accountsApi.create, 'account-setting', 'write'],
  [accountsApi.update, 'account-setting', 'write'],
  [accountsApi.resetPassword, 'account-setting', 'write'],
  [accountsApi.unlock, 'account-setting', 'write'],
  [accountsApi.lock, 'account-setting', 'write'],
  [shopsApi.list, 'client-setting', 'read'],
  [shopsApi.create, 'client-setting', 'write'],
  [shopsApi.update, 'client-setting', 'write'],
  [shopsApi.remove, 'client-setting', 'write'],
  [shopsApi.baseInformation, 'base-information', 'read'],
  [shopsApi.updateBaseInformation, 'base-information', 'write'],
  [shopPermissionsApi.list, 'shop-permission-setting', 'read'],
  [shopPermissionsApi.update, 'shop-permission-setting', 'write'],
  [denyRulesApi.list, 'access-deny-setting', 'read'],
  [denyRulesApi.create, 'access-deny-setting', 'write'],
  [denyRulesApi.update, 'access-deny-setting', 'write'],
  [denyRulesApi.remove, 'access-deny-setting', 'write'],
  [leadsApi.list, ['database-status', 'data-allocation', 'data-allocation-modify', 'data-deletion', 'shop-data-delivery'], 'read'],
  [leadsApi.get, 'database-status', 'read'],
  [leadsApi.update, 'database-status', 'write'],
  [leadsApi.bulkStatus, 'database-status', 'write'],
  [leadsApi.unmask, 'database-status', 'read'],
  [leadsApi.updateSettings, 'database-status', 'write'],
  [leadSlaApi.settings, 'database-status', 'read'],
  [leadSlaApi.updateSettings, 'database-status', 'write'],
  [leadDeletionApi.remove, 'data-deletion', 'write'],
  [leadDeletionApi.deleted, 'deleted-data-management', 'read'],
  [leadDeletionApi.deleters, 'deleted-data-management', 'read'],
  [leadDeletionApi.restore, 'deleted-data-management', 'write'],
  [leadDeletionApi.purge, 'deleted-data-management', 'write'],
  [leadDeletionApi.destructions, 'deleted-data-management', 'read'],
  [leadDeletionApi.upcoming, 'deleted-data-management', 'read'],
  [leadDeletionApi.settings, 'deleted-data-management', 'read'],
  [leadDeletionApi.updateSettings, 'deleted-data-management', 'write'],
  [leadExportApi.export, 'database-status', 'read'],
  [leadCalendarApi.month, 'database-calendar', 'read'],
  [leadCalendarApi.day, 'database-calendar', 'read'],
  [shopDashboardApi.get, 'shop-dashboard', 'read'],
  [allocationApi.apply, 'data-allocation', 'write'],
  [allocationApi.updateCounselor, 'data-allocation', 'write'],
  [allocationApi.updateRule, 'data-allocation', 'write'],
  [allocationApi.reassign, 'data-allocation-modify', 'write'],
  [csStatsApi.shop, 'cs-stats', 'read'],
  [csStatsApi.admin, 'admin-cs-stats', 'read'],
  [globalSearchApi.search, 'global-db-search', 'read'],
  [accessRecordApi.list, 'database-history', 'read'],
  [accessRecordApi.export, 'database-history', 'read'],
  [accessRecordApi.accounts, 'database-history', 'read'],
  [accessRecordApi.review, 'database-history', 'read'],
  [accessRecordApi.markReviewed, 'database-history', 'write'],
  [dashboardApi.get, 'dashboard', 'read'],
  [dashboardApi.stream, 'dashboard', 'read'],
  [dataInsertionApi.options, 'data-insertion', 'write'],
  [dataInsertionApi.create, 'data-insertion', 'write'],
  [dataInsertionApi.upload, 'data-insertion', 'write'],
  [dataInsertionApi.list, 'data-insertion', 'read'],
  [dataInsertionApi.get, 'data-insertion', 'write'],
  [dataInsertionApi.start, 'data-insertion', 'write'],
  [dataInsertionApi.cancel, 'data-insertion', 'write'],
  [dataInsertionApi.errors, 'data-insertion', 'write'],
  [adSpendApi.figures, 'advertising-status', 'read'],
  [adSpendApi.save, 'advertising-status', 'write'],
  [adSpendApi.importPreview, 'advertising-status', 'write'],
  [adSpendApi.importCommit, 'advertising-status', 'write'],
  [shopContractsApi.list, ['contract-management', 'contract-status'], 'read'],
  [shopContractsApi.get, ['contract-management', 'contract-status'], 'read'],
  [shopContractsApi.create, 'contract-management', 'write'],
  [shopContractsApi.update, 'contract-management', 'write'],
  [shopContractsApi.stop, 'contract-management', 'write'],
  [shopContractsApi.resume, 'contract-management', 'write'],
  [shopContractsApi.remove, 'contract-management', 'write'],
  [shopContractsApi.status, 'contract-status', 'read'],
  [shopContractsApi.leads, 'contract-status', 'read'],
  [shopContractsApi.settlement, 'contract-status', 'read'],
  [shopContractsApi.settlementXlsx, 'contract-status', 'read'],
  [shopContractsApi.returns, 'contract-management', 'read'],
  [shopContractsApi.returnable, 'contract-management', 'read'],
  [shopContractsApi.requestReturn, 'contract-management', 'read'],
  [shopContractsApi.decideReturn, 'contract-management', 'write'],
  [cpaApi.overview, 'cpa-management', 'read'],
  [cpaApi.targets, 'cpa-management', 'read'],
  [cpaApi.saveTargets, 'cpa-management', 'write'],
  [cpaApi.copyTargets, 'cpa-management', 'write'],
  [deliveryApi.send, 'shop-data-delivery', 'write'],
  [deliveryApi.channels, ['shop-data-delivery', 'shop-data-deliver-history'], 'read'],
  [deliveryApi.progress, ['shop-data-delivery', 'shop-data-deliver-history'], 'read'],
  [deliveryApi.summary, 'shop-data-deliver-history', 'read'],
  [deliveryApi.history, 'shop-data-deliver-history', 'read'],
  [deliveryApi.jobs, 'shop-data-deliver-history', 'read'],
  [deliveryApi.retry, 'shop-data-deliver-history', 'write'],
  [apiKeysApi.list, 'database-delivery-settings', 'read'],
  [apiKeysApi.create, 'database-delivery-settings', 'write'],
  [apiKeysApi.revoke, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.list, 'database-delivery-settings', 'read'],
  [deliveryChannelsApi.get, 'database-delivery-settings', 'read'],
  [deliveryChannelsApi.smtpStatus, 'database-delivery-settings', 'read'],
  [deliveryChannelsApi.landings, 'database-delivery-settings', 'read'],
  [deliveryChannelsApi.create, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.update, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.remove, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.setEnabled, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.rotateSecret, 'database-delivery-settings', 'write'],
  [deliveryChannelsApi.test, 'database-delivery-settings', 'write'],
  [systemReservationsApi.list, 'system-reservation', 'read'],
  [systemReservationsApi.options, 'system-reservation', 'write'],
  [systemReservationsApi.create, 'system-reservation', 'write'],
  [systemReservationsApi.update, 'system-reservation', 'write'],
  [systemReservationsApi.cancel, 'system-reservation', 'write'],
];

describe('route table', () => {
  it('has no /api route without a declared access rule', () => {
    const api = routes.filter((r) => r.url.startsWith('/api'));
    expect(api.length).toBeGreaterThan(ADMIN_ROUTES.length);
    const missing = api.filter((r) => !accessOf(r)).map((r) => `${methods(r).join(',')} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('registers every /api route from an endpoint declared in contracts/, but the public intake fast path', () => {
    const loose = routes
      .filter((r) => r.url.startsWith('/api') && !r.url.startsWith('/api/public/'))
      .filter((r) => !r.config?.endpoint)
      .map((r) => `${methods(r).join(',')} ${r.url}`);
    expect(loose).toEqual([]);
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
    for (const [{ method, path: url }, screen, action] of ADMIN_ROUTES) {
      const r = find(method, url);
      expect(r, `${method} ${url}`).toBeDefined();
      expect(accessOf(r!), `${method} ${url}`).toMatchObject({ screen, action });
    }
  });

  it('leaves only login, health and the public API’s documents public', () => {
    const open = routes.filter((r) => r.url.startsWith('/api') && accessOf(r) && 'public' in accessOf(r)!);
    const names = [...new Set(open.map((r) => r.url))];
    expect(names.filter((u) => !u.startsWith('/api/public/')).sort()).toEqual(
      [authApi.login.path, healthApi.get.path, healthApi.ready.path, pullApi.openapi.path, pullApi.docs.path].sort(),
    );
  });

  it('takes API keys on the public API under /api/v1/ only, and nowhere else', () => {
    const keyed = routes.filter((r) => accessOf(r) && 'apiKey' in accessOf(r)!);
    expect([...new Set(keyed.map((r) => r.url))]).toEqual([pullApi.leads.path]);
    expect(routes.filter((r) => r.url.startsWith('/api/v1/')).every((r) => { const a = accessOf(r)!; return 'apiKey' in a || 'public' in a; })).toBe(true);
  });
});

describe('agency and client', () => {
  type ScreenAccess = Extract<RouteAccess, { screen: unknown }>;
  const screensOf = (a: ScreenAccess) => (typeof a.screen === 'string' ? [a.screen] : [...a.screen]);
  const screenRoutes = () =>
    routes.filter((r) => r.url.startsWith('/api/')).flatMap((r) => {
      const a = accessOf(r);
      return a && 'screen' in a ? methods(r).map((method) => ({ method, url: r.url, access: a, endpoint: r.config?.endpoint })) : [];
    });
  /** Routes only the agency may use: every screen they name is out of a client's reach for their action (contracts/screens.ts marks them). */
  const agencyOnly = () => screenRoutes().filter((r) => !screensOf(r.access).some((s) => sideAllows('client', s, r.access.action)));

  let shopId: number;
  const clients: Record<string, Client> = {};
  beforeAll(async () => {
    const admin = await t.login();
    shopId = await createShop(admin, 'sides');
    // A custom client type whose stored matrix grants every screen, as a hand-edited or pre-upgrade database could hold.
    const custom = await admin.post('/api/account-types', { name: '외부 파트너', area: 'shop', dataScope: 'all' });
    expect(custom.json().side).toBe('client');
    await t.app.db.updateTable('account_types').set({ permissions: JSON.stringify(uniformMatrix('write')) }).where('id', '=', custom.json().id).execute();
    for (const [loginId, type] of [['owner-s', '업체관리자'], ['counselor-s', '상담원'], ['partner-s', '외부 파트너']] as const) {
      const id = await createAccount(admin, loginId, type);
      expect((await admin.put(`/api/shop-permissions/${id}`, { shopIds: [shopId] })).statusCode).toBeLessThan(300);
      clients[type] = await t.login(loginId, TEST_PASSWORD);
    }
  });

  const fill = (url: string) => url.replace(':shopId', String(shopId)).replace(/:\w+/g, '1');

  it('marks the agency’s books and tools agency-only, and the client’s own screens not', () => {
    const paths = new Set(agencyOnly().map((r) => `${r.method} ${r.url}`));
    for (const e of [cpaApi.overview, cpaApi.saveTargets, adSpendApi.figures, adSpendApi.importPreview, shopContractsApi.create, shopContractsApi.decideReturn, dashboardApi.get, accountsApi.list]) {
      expect(paths, `${e.method} ${e.path}`).toContain(`${e.method} ${e.path}`);
    }
    for (const e of [shopDashboardApi.get, shopContractsApi.status, shopContractsApi.settlement, shopContractsApi.requestReturn, leadsApi.list]) {
      expect(paths, `${e.method} ${e.path}`).not.toContain(`${e.method} ${e.path}`);
    }
    expect((findScreen('landing-script-management')!.agency)).toBe('all');
  });

  it('answers 403 to every client type on every agency-only endpoint, whatever its matrix grants', async () => {
    const routesToTry = agencyOnly();
    expect(routesToTry.length).toBeGreaterThan(60);
    for (const [type, client] of Object.entries(clients)) {
      for (const r of routesToTry) {
        const res = await client.request(r.method, fill(r.url), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
        expect(res.statusCode, `${type}: ${r.method} ${r.url} ${res.body}`).toBe(403);
        if (r.method === 'HEAD') continue;
        expect(res.json().error.message, `${type}: ${r.method} ${r.url}`).toBe('대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.');
      }
    }
  });

  it('sends a client account no agency figure in any answer it may read', async () => {
    const AGENCY_FIGURES = ['spend', 'cpa', 'cpl', 'targetCpa', 'actualCpa', 'revenue', 'margin', 'marginRate', 'variance'];
    const found = (value: unknown, path: string): string[] =>
      Array.isArray(value) ? value.flatMap((v, i) => found(v, `${path}[${i}]`))
      : value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => [...(AGENCY_FIGURES.includes(k) ? [`${path}.${k}`] : []), ...found(v, `${path}.${k}`)])
        : [];
    // Every GET a client type may read that needs no more than its shop: lists, settings, dashboards, figures.
    const reads = screenRoutes().filter((r) => r.method === 'GET' && r.url.includes(':shopId') && r.url.split(':').length === 2)
      .filter((r) => r.endpoint && typeof r.endpoint.response === 'object' && r.endpoint.response !== null)
      .filter((r) => screensOf(r.access).some((s) => sideAllows('client', s, 'read')));
    expect(reads.map((r) => r.url)).toContain(shopDashboardApi.get.path);
    const partner = clients['외부 파트너']!;
    for (const r of reads) {
      const res = await partner.get(fill(r.url));
      expect(res.statusCode, `${r.url} ${res.body}`).toBeLessThan(500);
      expect(found(res.json(), r.url), r.url).toEqual([]);
    }
    // The dashboard's spend is simply absent (null) for the client.
    expect((await partner.get(fill(shopDashboardApi.get.path))).json().ad).toBeNull();
  });
});
