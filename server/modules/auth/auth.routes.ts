import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { SESSION_COOKIE } from '../../plugins/auth.ts';
import { authApi } from '../../../contracts/auth.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: 'auto' as const };
  const perMinute = { max: app.config.loginRateLimit, timeWindow: '1 minute' };

  defineRoute(app, authApi.login, {
    access: { public: true },
    rateLimit: perMinute,
    async handler({ body, req, reply }) {
      const { token, account } = await app.auth.login(body.loginId, body.password, { ip: req.ip, userAgent: req.headers['user-agent'] });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: app.config.sessionAbsoluteHours * 3600 });
      return { account };
    },
  });
  defineRoute(app, authApi.me, { access: { authenticated: true }, handler: ({ auth }) => ({ account: auth.account }) });
  defineRoute(app, authApi.logout, {
    access: { authenticated: true },
    async handler({ auth, reply }) {
      await app.auth.logout(auth.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  });
  defineRoute(app, authApi.password, {
    access: { authenticated: true },
    rateLimit: perMinute,
    handler: ({ auth, body, req }) => app.auth.changePassword({ sessionId: auth.sessionId, accountId: auth.account.id }, body.currentPassword, body.newPassword, req.ip),
  });
  defineRoute(app, authApi.shops, {
    access: { authenticated: true },
    async handler({ auth }) {
      const rows = auth.account.area === 'admin' ? await app.auth.repo.allShops() : await app.auth.repo.permittedShops(auth.account.id);
      return { items: rows.map((r) => ({ id: r.id, shopCode: r.shop_code, name: r.name, status: r.status })) };
    },
  });
}
