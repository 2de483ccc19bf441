// Session cookie → req.auth; CSRF origin check; every route's declared access enforced.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authService, toSessionAccount } from '../modules/auth/auth.service.ts';
import type { AccountWithType } from '../modules/auth/auth.repository.ts';
import { AppError, forbidden, notFound, unauthenticated } from '../lib/errors.ts';
import { allows } from '../../contracts/permissions.ts';
import type { SessionAccount } from '../../contracts/auth.ts';
import { BACKGROUND_HEADER } from '../../contracts/http.ts';
import { ERROR_CODES } from '../../contracts/errors.ts';

export const SESSION_COOKIE = 'lr_session';

export interface AuthContext {
  sessionId: string;
  row: AccountWithType;
  account: SessionAccount;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    shopId: number | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Refuses a state-changing request whose Origin (or, lacking it, Referer) names another origin. */
function checkSameOrigin(req: FastifyRequest): void {
  if (!UNSAFE.has(req.method)) return;
  const source = req.headers.origin ?? req.headers.referer;
  // A sibling origin on the same site (public pages on lp.example.com) is as foreign as another site.
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw new AppError(403, ERROR_CODES.CSRF, '다른 사이트에서 보낸 요청은 처리할 수 없습니다.');
  if (!source) return;
  let origin: string;
  try {
    origin = new URL(source).host;
  } catch {
    throw new AppError(403, ERROR_CODES.CSRF, '다른 사이트에서 보낸 요청은 처리할 수 없습니다.');
  }
  // req.host honours X-Forwarded-Host only behind a trusted proxy (TRUST_PROXY=1).
  const host = req.host.replace(/:(80|443)$/, '');
  if (origin !== host) throw new AppError(403, ERROR_CODES.CSRF, '다른 사이트에서 보낸 요청은 처리할 수 없습니다.');
}

export async function authPlugin(app: FastifyInstance): Promise<void> {
  const service = authService(app.db, app.clock, {
    idleMinutes: app.config.sessionIdleMinutes,
    absoluteHours: app.config.sessionAbsoluteHours,
  });
  app.decorate('auth', service);
  app.decorateRequest('auth', null);
  app.decorateRequest('shopId', null);

  // An API-key route's caller (set by its own key check, plugins/route.ts).
  app.decorateRequest('apiKey', null);

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config.access;
    // Every /api route but the public intake endpoints (posted from landing pages, no cookie) and
    // the API-key routes (a bearer key is never sent by a browser on its own: nothing to forge).
    if (req.url.startsWith('/api/') && !req.url.startsWith('/api/public/') && !(access && 'apiKey' in access)) checkSameOrigin(req);
    if (!access || 'public' in access || 'apiKey' in access) return;
    const token = req.cookies[SESSION_COOKIE];
    if (!token) throw unauthenticated();
    const resumed = await service.resume(token, { background: req.headers[BACKGROUND_HEADER] === '1' });
    if (!resumed) throw unauthenticated('세션이 만료되었습니다. 다시 로그인하세요.');
    req.auth = { sessionId: resumed.sessionId, row: resumed.account, account: toSessionAccount(resumed.account) };
  });

  // Before the body is validated: a caller without the right learns nothing of the route's input rules.
  app.addHook('preValidation', async (req) => {
    const access = req.routeOptions.config.access;
    if (!access || 'public' in access || 'authenticated' in access || 'apiKey' in access) return;
    const auth = req.auth!;
    // A generated or reset password is chosen anew before any screen's data is served.
    if (auth.account.mustChangePassword) throw new AppError(403, ERROR_CODES.PASSWORD_CHANGE_REQUIRED, '새 비밀번호를 정한 뒤에 이용할 수 있습니다.');
    const screens = typeof access.screen === 'string' ? [access.screen] : access.screen;
    if (!screens.some((s) => allows(auth.account.permissions, s, access.action))) throw forbidden();
    if (access.shop) {
      const shopId = Number((req.params as { shopId?: string }).shopId);
      if (!Number.isInteger(shopId) || shopId <= 0) throw notFound('업체를 찾을 수 없습니다.');
      const permitted =
        auth.account.area === 'admin'
          ? await service.repo.shopExists(shopId)
          : await service.repo.hasShopPermission(auth.account.id, shopId);
      if (!permitted) throw forbidden('이 업체에 접근할 권한이 없습니다.');
      req.shopId = shopId;
    }
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: ReturnType<typeof authService>;
  }
}
