// During a maintenance window (시스템 예약) the back office answers 503 with the notice and a
// Retry-After to everyone but 최고관리자, whatever the method. Landing pages, intake (/api/public),
// the pull API (its own keys), health and the SPA's files need no session and pass untouched;
// so do the session's own calls (/api/auth: logging in and out, who am I) and the banner's
// /api/notices, so the back office can say what is going on. Registered after the auth plugin:
// only requests it resolved a session for are the back office's.
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { ERROR_CODES } from '../../contracts/errors.ts';
import { maintenanceRefusal, systemReservationsApi } from '../../contracts/system-reservations.ts';
import { maintenanceWindows, windowAt } from '../db/maintenance.ts';

const isOpen = (url: string) => url.startsWith('/api/auth/') || url.split('?', 1)[0] === systemReservationsApi.notices.path;

export function maintenancePlugin(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!req.auth || req.auth.row.builtin_key === 'superadmin' || isOpen(req.url)) return;
    const now = app.clock();
    const window = windowAt(await maintenanceWindows(app.db, now), now);
    if (!window) return;
    reply.header('retry-after', String(Math.max(1, Math.ceil((Date.parse(window.endsAt) - now.getTime()) / 1000))));
    throw new AppError(503, ERROR_CODES.MAINTENANCE, maintenanceRefusal(window, now));
  });
}
