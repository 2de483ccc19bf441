import type { FastifyInstance } from 'fastify';
import type { ModuleLinks } from '../../links.ts';
import { defineRoute } from '../../plugins/route.ts';
import { eventStreams } from '../../plugins/event-stream.ts';
import { leadsService } from './leads.service.ts';
import { allocationService } from './allocation.ts';
import { slaService } from './sla.ts';
import { callAttemptService } from './call-attempt.ts';
import { allocationApi } from '../../../contracts/allocation.ts';
import { leadSlaApi } from '../../../contracts/lead-sla.ts';
import { LEAD_STREAM_EVENT, leadsApi as api, type LeadChange, type LeadStreamEvent } from '../../../contracts/leads.ts';

const LEAD_LISTERS = ['database-status', 'data-allocation', 'data-allocation-modify', 'data-deletion', 'shop-data-delivery'];

/** The screens that work leads, each reading the shop's counselors. */
const COUNSELOR_READERS = ['database-status', 'data-allocation', 'data-allocation-modify', 'database-calendar', 'cs-stats', 'data-deletion', 'shop-data-delivery'];

export async function leadsRoutes(app: FastifyInstance, links: ModuleLinks): Promise<void> {
  const service = leadsService(app.db, app.clock, links.leadsChanged);
  const streams = eventStreams(app);
  const read = { screen: 'database-status', action: 'read', shop: true } as const;
  const write = { screen: 'database-status', action: 'write', shop: true } as const;

  // The list serves DB 현황, the allocation screens (which list unassigned or assigned leads) and DB 삭제.
  defineRoute(app, api.list, { access: { screen: LEAD_LISTERS, action: 'read', shop: true }, handler: (c) => service.list(c.shopId, c.query, c.actor) });
  // Each change of the shop's leads that the account may see: a counselor hears only of leads
  // assigned to them (or just taken from them), never of another counselor's or another shop's.
  defineRoute(app, api.stream, {
    access: read,
    handler(c) {
      const me = c.actor;
      const stream = streams.open(c.req, c.reply);
      const stop = links.watchLeads(c.shopId, (change) => {
        const seen = me.scope === 'all' ? change.leads : change.leads.filter((l) => l.assigneeId === me.id || l.previousAssigneeId === me.id);
        if (!seen.length) return;
        // Newly the account's own: arrived assigned to it, or handed to it from someone (or no one) else.
        const arrived = (l: LeadChange['leads'][number]) =>
          l.assigneeId === me.id && (change.kind === 'created' || (l.previousAssigneeId !== undefined && l.previousAssigneeId !== me.id));
        const event: LeadStreamEvent = { kind: change.kind, ids: seen.map((l) => l.id), mine: seen.filter(arrived).map((l) => l.id) };
        stream.send(LEAD_STREAM_EVENT, event);
      });
      stream.onEnd(stop);
    },
  });
  defineRoute(app, api.get, { access: read, handler: (c) => service.get(c.shopId, c.params.id, c.actor, c.query.opening) });
  defineRoute(app, api.update, { access: write, handler: (c) => service.update(c.shopId, c.params.id, c.body, c.actor) });
  defineRoute(app, api.bulkStatus, { access: write, handler: (c) => service.bulkStatus(c.shopId, c.body, c.actor) });
  defineRoute(app, api.unmask, { access: read, handler: (c) => service.unmask(c.shopId, c.params.id, c.actor) });
  const callAttempt = callAttemptService(app.db, app.clock, links.leadsChanged);
  defineRoute(app, api.callAttempt, { access: write, handler: (c) => callAttempt(c.shopId, c.params.id, c.actor) });
  defineRoute(app, api.counselors, { access: { screen: COUNSELOR_READERS, action: 'read', shop: true }, handler: (c) => service.counselors(c.shopId) });
  defineRoute(app, api.settings, { access: read, handler: (c) => service.settings(c.shopId) });
  defineRoute(app, api.updateSettings, { access: write, handler: (c) => service.updateSettings(c.shopId, c.body, c.actor) });
  // Speed to lead: the shop reads its promise beside the lead settings; only the agency's side changes it (the service refuses the client's).
  const sla = slaService(app.db, app.clock);
  defineRoute(app, leadSlaApi.settings, { access: read, handler: (c) => sla.settings(c.shopId) });
  defineRoute(app, leadSlaApi.updateSettings, { access: write, handler: (c) => sla.updateSettings(c.shopId, c.body, c.actor) });

  const allocation = allocationService(app.db, app.clock, links.leadsChanged);
  const allocRead = { screen: ['data-allocation', 'data-allocation-modify'], action: 'read', shop: true } as const;
  const allocWrite = { screen: 'data-allocation', action: 'write', shop: true } as const;
  defineRoute(app, allocationApi.state, { access: allocRead, handler: (c) => allocation.state(c.shopId) });
  defineRoute(app, allocationApi.updateCounselor, { access: allocWrite, handler: (c) => allocation.updateCounselor(c.shopId, c.params.accountId, c.body, c.actor) });
  defineRoute(app, allocationApi.updateRule, { access: allocWrite, handler: (c) => allocation.updateRule(c.shopId, c.body.autoMode, c.actor) });
  defineRoute(app, allocationApi.preview, { access: { ...allocWrite, action: 'read' }, handler: (c) => allocation.preview(c.shopId, c.body) });
  defineRoute(app, allocationApi.apply, { access: allocWrite, handler: (c) => allocation.apply(c.shopId, c.body, c.actor) });
  defineRoute(app, allocationApi.reassign, {
    access: { screen: 'data-allocation-modify', action: 'write', shop: true },
    handler: (c) => allocation.reassign(c.shopId, c.body, c.actor),
  });
  defineRoute(app, allocationApi.history, { access: allocRead, handler: (c) => allocation.history(c.shopId, c.query) });
}
