import type { FastifyInstance } from 'fastify';
import { defineRoute } from '../../plugins/route.ts';
import { SESSION_COOKIE } from '../../plugins/auth.ts';
import { accountResponse, changePasswordBody, loginBody, myShopsResponse } from '../../../contracts/auth.ts';

export async function authRoutes(app: FastifyInstance): Promise<void> {
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: 'auto' as const,
  };

  defineRoute(app, {
    method: 'POST',
    url: '/api/auth/login',
    access: { public: true },
    body: loginBody,
    response: accountResponse,
    rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' },
    async handler({ body, req, reply }) {
      const { token, account } = await app.auth.login(body.loginId, body.password, {
        ip: req.ip,
        userAgent: req.headers['user-agent'],
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: app.config.sessionAbsoluteHours * 3600 });
      return { account };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/auth/me',
    access: { authenticated: true },
    response: accountResponse,
    async handler({ auth }) {
      return { account: auth.account };
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/auth/logout',
    access: { authenticated: true },
    response: null,
    async handler({ auth, reply }) {
      await app.auth.logout(auth.sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: '/' });
    },
  });

  defineRoute(app, {
    method: 'POST',
    url: '/api/auth/password',
    access: { authenticated: true },
    body: changePasswordBody,
    response: null,
    rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' },
    async handler({ auth, body, req }) {
      await app.auth.changePassword({ sessionId: auth.sessionId, accountId: auth.account.id }, body.currentPassword, body.newPassword, req.ip);
    },
  });

  /** Shops the account may enter: every shop for admin-area types, else its shop permissions. */
  defineRoute(app, {
    method: 'GET',
    url: '/api/auth/shops',
    access: { authenticated: true },
    response: myShopsResponse,
    async handler({ auth }) {
      const rows = auth.account.area === 'admin' ? await app.auth.repo.allShops() : await app.auth.repo.permittedShops(auth.account.id);
      return { items: rows.map((r) => ({ id: r.id, shopCode: r.shop_code, name: r.name, status: r.status })) };
    },
  });
}
