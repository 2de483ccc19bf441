import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { SESSION_COOKIE, sessionPolicy } from '../../plugins/auth.ts';
import { authService } from './auth.service.ts';
import { authApi, type SessionAccount } from '../../../contracts/auth.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const service = authService(app.db, app.clock, sessionPolicy(app));
  // Secure whenever the browser talks https to us: the request says so (X-Forwarded-Proto only from a
  // trusted proxy, req.protocol), or the public pages are https, so the back office is too.
  const httpsPublicOrigin = app.config.publicOrigin?.startsWith('https:') ?? false;
  const cookieOptions = (req: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax' as const, secure: httpsPublicOrigin || req.protocol === 'https' });
  const perMinute = { max: app.config.loginRateLimit, timeWindow: '1 minute' };

  defineRoute(app, authApi.login, {
    access: { public: true },
    rateLimit: perMinute,
    async handler({ body, req, reply }) {
      const { token, account } = await service.login(body.loginId, body.password, { ip: req.ip, userAgent: req.headers['user-agent'] });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(req), maxAge: app.config.sessionAbsoluteHours * 3600 });
      return { account };
    },
  });
  defineRoute(app, authApi.me, { access: { authenticated: true }, handler: ({ auth }) => ({ account: auth.account }) });
  defineRoute(app, authApi.logout, {
    access: { authenticated: true },
    async handler({ auth, req, reply }) {
      await service.logout(auth.sessionId);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
    },
  });
  defineRoute(app, authApi.password, {
    access: { authenticated: true },
    rateLimit: perMinute,
    handler: ({ auth, body, req }) => service.changePassword({ sessionId: auth.sessionId, accountId: auth.account.id }, body.currentPassword, body.newPassword, req.ip),
  });
  /** Shops the account may enter: every shop for administrator-area types, else its shop permissions. */
  const shopsOf = async (account: SessionAccount) => {
    const rows = account.area === 'admin' ? await service.repo.allShops() : await service.repo.permittedShops(account.id);
    return rows.map((r) => ({ id: r.id, shopCode: r.shop_code, name: r.name, status: r.status }));
  };
  defineRoute(app, authApi.shops, { access: { authenticated: true }, handler: async ({ auth }) => ({ items: await shopsOf(auth.account) }) });
  defineRoute(app, authApi.session, {
    access: { authenticated: true },
    handler: async ({ auth }) => ({ account: auth.account, shops: await shopsOf(auth.account) }),
  });
}
