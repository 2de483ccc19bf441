// Session cookie → req.auth; CSRF origin check; every route's declared access enforced.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { sessionStore, toSessionAccount, type AccountWithType, type SessionPolicy, type SessionStore } from '../db/sessions.ts';
import { AppError, forbidden, notFound, unauthenticated } from '../lib/errors.ts';
import { allows, sideAllows } from '../../contracts/permissions.ts';
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

const crossSite = () => new AppError(403, ERROR_CODES.CSRF, '다른 사이트에서 보낸 요청은 처리할 수 없습니다.');

/**
 * The origin the browser sent this request to: scheme, host and port. X-Forwarded-Proto and
 * X-Forwarded-Host count only from a trusted proxy (TRUST_PROXY; Fastify's req.protocol, req.host).
 */
function ownOrigin(req: FastifyRequest): string | null {
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return null;
  }
}

/** Refuses a state-changing request whose Origin (or, lacking it, Referer) names another origin, scheme and port included. */
function checkSameOrigin(req: FastifyRequest): void {
  if (!UNSAFE.has(req.method)) return;
  const source = req.headers.origin ?? req.headers.referer;
  // A sibling origin on the same site (public pages on lp.example.com) is as foreign as another site.
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') throw crossSite();
  if (!source) return;
  let origin: URL;
  try {
    origin = new URL(source);
  } catch {
    throw crossSite();
  }
  const own = ownOrigin(req);
  if (origin.origin === own) return;
  // The page is https and the request looks like http (or the reverse): a TLS proxy whose
  // X-Forwarded-Proto is not read. Refused all the same; the log says what to set.
  if (own && origin.host === new URL(own).host) {
    req.log.warn({ origin: origin.origin, requestOrigin: own }, 'refused: the page and the request differ in scheme — behind a TLS proxy, set TRUST_PROXY so X-Forwarded-Proto is read');
  }
  throw crossSite();
}

/** A route's access rule that names screens (plugins/route.ts). */
type ScreenAccess = Extract<NonNullable<FastifyContextConfig['access']>, { screen: unknown }>;

/**
 * Whether `account` may use a screen route (and enter its `:shopId`), from its side and its
 * type's matrix: a client account never reaches what only the agency may do (the catalogue's
 * marks, contracts/screens.ts), whatever the matrix says. Answers the shop's id (null on a route
 * without one); throws 403 (or 404 for a malformed shop) otherwise. Every request passes it, and
 * every open event stream again on its own checks (plugins/event-stream.ts).
 */
export async function checkAccess(
  sessions: SessionStore, account: SessionAccount, access: ScreenAccess, params: unknown,
): Promise<number | null> {
  const screens = typeof access.screen === 'string' ? [access.screen] : access.screen;
  const reachable = screens.filter((s) => sideAllows(account.side, s, access.action));
  if (!reachable.length) throw forbidden('대행사 전용 기능입니다. 고객사 계정에는 열리지 않습니다.');
  if (!reachable.some((s) => allows(account.permissions, s, access.action))) throw forbidden();
  if (!access.shop) return null;
  const shopId = Number((params as { shopId?: string } | undefined)?.shopId);
  if (!Number.isInteger(shopId) || shopId <= 0) throw notFound('업체를 찾을 수 없습니다.');
  const permitted = account.area === 'admin' ? await sessions.shopExists(shopId) : await sessions.hasShopPermission(account.id, shopId);
  if (!permitted) throw forbidden('이 업체에 접근할 권한이 없습니다.');
  return shopId;
}

/** How long a session lives, from the settings: the plugin reads sessions, modules/auth starts them. */
export const sessionPolicy = (app: FastifyInstance): SessionPolicy => ({
  idleMinutes: app.config.sessionIdleMinutes,
  absoluteHours: app.config.sessionAbsoluteHours,
});

export async function authPlugin(app: FastifyInstance): Promise<void> {
  const sessions = sessionStore(app.db, app.clock, sessionPolicy(app));
  app.decorate('sessions', sessions);
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
    const resumed = await sessions.resume(token, { background: req.headers[BACKGROUND_HEADER] === '1' });
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
    const shopId = await checkAccess(sessions, auth.account, access, req.params);
    if (shopId !== null) req.shopId = shopId;
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The session look-up (db/sessions.ts): logging in and out is modules/auth's. */
    sessions: SessionStore;
  }
}
