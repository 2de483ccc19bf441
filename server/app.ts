// build(): the whole product as one Fastify instance — importable by tests, started by main.ts.
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import formbody from '@fastify/formbody';
import type { Kysely } from 'kysely';
import { loadConfig, type Config } from './config.ts';
import { openDatabase, type DbHandle, type DialectName } from './db/dialect.ts';
import type { Database } from './db/schema.ts';
import { migrateToLatest } from './db/migrate.ts';
import { ensureEssentials } from './db/seed.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { outboundClient, type OutboundClient, type Resolver } from './lib/outbound.ts';
import { eventLevel, loggerFor, REQUEST_ID_HEADER, requestIdOf } from './lib/logger.ts';
import { trustFunction, type TrustFunction } from './lib/trust-proxy.ts';
import { withSetupLock } from './db/dialect-sql.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { operationsRoutes } from './modules/operations/operations.routes.ts';
import { heartbeatJob } from './worker/heartbeat.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { httpBasics } from './plugins/http-basics.ts';
import { publicOriginPlugin } from './plugins/public-origin.ts';
import { authPlugin } from './plugins/auth.ts';
import { spaPlugin } from './plugins/spa.ts';
import { installFastPaths } from './plugins/fast-path.ts';
import type { ModuleLinks, ResourceModule } from './links.ts';
import { publicLandingPages } from './modules/landings/public/page-cache.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { codeItemsRoutes } from './modules/code-items/code-items.routes.ts';
import { accountTypesRoutes } from './modules/account-types/account-types.routes.ts';
import { accountsRoutes } from './modules/accounts/accounts.routes.ts';
import { shopsRoutes } from './modules/shops/shops.routes.ts';
import { shopPermissionsRoutes } from './modules/shop-permissions/shop-permissions.routes.ts';
import { denyRulesRoutes } from './modules/deny-rules/deny-rules.routes.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.ts';
import { operatorRoutes } from './modules/operator/operator.routes.ts';
import { landingsRoutes } from './modules/landings/landings.routes.ts';
import { experimentsRoutes } from './modules/landings/experiments.routes.ts';
import { landingScriptsRoutes } from './modules/landing-scripts/landing-scripts.routes.ts';
import { privacyPoliciesRoutes } from './modules/privacy-policies/privacy-policies.routes.ts';
import { intakeRoutes, type IntakeHandle } from './modules/intake/intake.routes.ts';
import { leadsRoutes } from './modules/leads/leads.routes.ts';
import { leadCalendarRoutes } from './modules/lead-calendar/lead-calendar.routes.ts';
import { shopDashboardRoutes } from './modules/shop-dashboard/shop-dashboard.routes.ts';
import { csStatsRoutes } from './modules/cs-stats/cs-stats.routes.ts';
import { globalSearchRoutes } from './modules/global-search/global-search.routes.ts';
import { accessRecordRoutes } from './modules/access-record/access-record.routes.ts';
import { leadExportRoutes } from './modules/lead-export/lead-export.routes.ts';
import { dataInsertionRoutes } from './modules/data-insertion/data-insertion.routes.ts';
import { leadDeletionRoutes } from './modules/leads/deletion.routes.ts';
import { adSpendRoutes } from './modules/ad-spend/ad-spend.routes.ts';
import { cpaRoutes } from './modules/cpa/cpa.routes.ts';
import { shopContractsRoutes } from './modules/shop-contracts/shop-contracts.routes.ts';
import { deliveryHistoryRoutes } from './modules/delivery/delivery-history.routes.ts';
import { deliveryChannelsRoutes } from './modules/delivery/delivery-channels.routes.ts';
import { shopContractsService } from './modules/shop-contracts/shop-contracts.service.ts';
import { adFigures } from './modules/ad-spend/ad-spend.service.ts';
import { DASHBOARD_CONTRACT_RECENT_DAYS } from '../contracts/shop-dashboard.ts';
import { leadFeed } from './modules/leads/lead-feed.ts';
import { startScheduler } from './worker/scheduler.ts';
import { purgeJob } from './worker/purge.ts';
import { reopenJob } from './worker/reopen.ts';
import { abandonedImportsJob } from './worker/abandoned-imports.ts';
import { deliveryWorker } from './worker/delivery.ts';
import { DELIVERY_NOTICE, sendStaffText } from './modules/delivery/delivery.entry.ts';
import { alertNotifier, vapidSubject } from './modules/alerts/alerts.entry.ts';
import { alertsRoutes } from './modules/alerts/alerts.routes.ts';
import { matchingLeads } from './modules/leads/leads.entry.ts';
import { databaseIdentity, openNotifier } from './db/notify.ts';
import { closeRedis, openRedis, redisConnected, redisPrefix, type RedisClient } from './lib/redis.ts';
import { sharedRateLimitStore } from './lib/rate-limit-store.ts';
import { localWindow, sharedWindow, type WindowLimiter } from './lib/rate-limit.ts';
import { CROSS_PROCESS_CHANNELS, crossProcessPages, crossProcessVisitFlush } from './db/cross-process.ts';
import { checkLandingSecret } from './lib/render-stamp.ts';
import { sharedSettings } from './db/shared-settings.ts';
import { systemReservationsRoutes } from './modules/system-reservations/system-reservations.routes.ts';
import { landingsService } from './modules/landings/landings.service.ts';
import { experimentsService } from './modules/landings/landings.entry.ts';
import { maintenancePlugin } from './plugins/maintenance.ts';
import { reservationsJob } from './worker/reservations.ts';
import { pullApiRoutes } from './modules/pull-api/pull-api.routes.ts';
import { feedSeqJob } from './worker/lead-feed-seq.ts';
import { followUpJob } from './worker/lead-follow-up.ts';
import { slaJob } from './worker/sla.ts';

const MODULES: readonly ResourceModule[] = [
  authRoutes, codeItemsRoutes, accountTypesRoutes, accountsRoutes, shopsRoutes, shopPermissionsRoutes, denyRulesRoutes,
  dashboardRoutes, operatorRoutes, landingsRoutes, experimentsRoutes, landingScriptsRoutes, privacyPoliciesRoutes, leadsRoutes,
  leadCalendarRoutes, shopDashboardRoutes,
  globalSearchRoutes, accessRecordRoutes,
  csStatsRoutes, leadExportRoutes,
  dataInsertionRoutes,
  leadDeletionRoutes,
  adSpendRoutes,
  shopContractsRoutes,
  cpaRoutes,
  deliveryHistoryRoutes,
  deliveryChannelsRoutes,
  systemReservationsRoutes,
  pullApiRoutes,
  alertsRoutes,
];

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: DialectName;
    /** The SQLite database file, when the database is one (not in memory). */
    sqliteFile: string | null;
    /** TRUST_PROXY as one function: Fastify's req.ip / req.host / req.protocol and the fast paths all ask it. */
    proxyTrust: TrustFunction;
    clock: Clock;
    config: Config;
    /** The one client of requests made on a user's behalf (webhooks, SMS gateways): nothing inside but the allowed ranges. */
    outbound: OutboundClient;
    /** The links between modules (tests reach the page cache and the visit counter through them). */
    links: ModuleLinks;
    /** The Redis command connection when REDIS_URL is set (shared rate limits, messages), else null. */
    redis: RedisClient | null;
    /** This database's Redis key prefix (lib/redis.ts redisPrefix): apps of one database share it. */
    redisPrefix: string;
    /** A per-minute limiter (`limit` per key; 0: none) shared by every process with Redis, else this process's own. */
    windowLimiter(name: string, limit: number): WindowLimiter;
  }
}

export interface BuildOptions {
  config?: Partial<Config>;
  /** An already open database (tests); otherwise opened from config.databaseUrl. */
  database?: DbHandle;
  clock?: Clock;
  /** Print the generated admin password and demo logins (npm start). */
  onSeed?: (message: string) => void;
  /** Sees every route as it is registered (the route-table test). */
  onRoute?: (route: RouteOptions) => void;
  /** How outbound host names resolve (tests: no DNS leaves the machine); default the system's resolver. */
  resolveHost?: Resolver;
}

export async function build(opts: BuildOptions = {}): Promise<FastifyInstance> {
  const config = { ...loadConfig(), ...opts.config };
  // Connections lost (PostgreSQL restarting, a network cut) are logged once the logger exists.
  const connectionLost: { log?: (err: Error) => void } = {};
  const handle = opts.database ?? (await openDatabase({ url: config.databaseUrl, onConnectionLost: (err) => connectionLost.log?.(err) }));
  // Once, not once per process: processes starting together take turns (the first migrates and seeds).
  await withSetupLock(handle.db, async (db) => {
    await migrateToLatest(db);
    await ensureEssentials(db, config, opts.onSeed ?? (() => {}), (opts.clock ?? systemClock)());
  });

  const proxyTrust = trustFunction(config.trustProxy);
  const app = Fastify({
    ...loggerFor(config),
    trustProxy: config.trustProxy === false ? false : proxyTrust,
    bodyLimit: 1024 * 1024,
    // The caller's X-Request-Id when sane, else a new one (logger.ts); the fast paths use the same.
    genReqId: requestIdOf,
  });
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.decorate('db', handle.db);
  app.decorate('dialect', handle.dialect);
  app.decorate('sqliteFile', handle.sqliteFile ?? null);
  app.decorate('proxyTrust', proxyTrust);
  app.decorate('clock', opts.clock ?? systemClock);
  app.decorate('config', config);
  app.decorate('outbound', outboundClient({ allow: config.outboundAllowCidrs, resolve: opts.resolveHost }));
  connectionLost.log = (err) => app.log.warn({ err }, 'database connection lost: the pool opens a new one');
  // Every process must sign forms with the same secret: checked before anything is served.
  await checkLandingSecret({
    dataDir: config.dataDir, cluster: config.cluster, sharedDatabase: !!handle.pg,
    store: sharedSettings(handle.db, 'landing-secret-fingerprint'), now: (opts.clock ?? systemClock)(),
    warn: (message) => app.log.warn(message),
  }).catch(async (err: unknown) => {
    if (!opts.database) await handle.close();
    throw err;
  });
  // Redis (REDIS_URL): the rate limits and messages every process shares, under this database's prefix.
  const redis = config.redisUrl ? openRedis(config.redisUrl) : null;
  const prefix = redisPrefix((await databaseIdentity(handle)) ?? `memory:${process.pid}:${Math.random()}`);
  app.decorate('redis', redis);
  app.decorate('redisPrefix', prefix);
  if (redis) {
    redis.on('error', (err) => app.log.warn({ err }, 'redis'));
    if (!(await redisConnected(redis))) app.log.error({ redisUrl: config.redisUrl }, 'redis not reachable: starting with rate limits per process until it is');
    // Closed last (hooks run last-added first): the notifier and intake's limiters use it until then.
    app.addHook('onClose', async () => closeRedis(redis));
  }
  const limiterFallback = (err: unknown) => app.log.warn({ err }, 'redis unavailable: rate limits counted in this process only');
  app.decorate('windowLimiter', (name: string, limit: number): WindowLimiter =>
    redis ? sharedWindow({ redis, prefix, name, limit, onFallback: limiterFallback }) : localWindow(limit));
  if (!opts.database) app.addHook('onClose', async () => handle.close());

  // Routes validate and serialize with their zod schemas (contracts/).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  errorsPlugin(app);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  httpBasics(app);
  publicOriginPlugin(app);
  await app.register(rateLimit, { global: false, ...(redis ? { store: sharedRateLimitStore(redis, `${prefix}rate:`, limiterFallback) } : {}) });

  await authPlugin(app);
  // After the session is known: during a maintenance window the back office answers 503 to all but 최고관리자.
  maintenancePlugin(app);

  // Before the fast paths, which count into it; health, readiness and the outbox gauges next.
  metricsPlugin(app);
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    done();
  });
  await operationsRoutes(app);

  // Public landing pages first: their fast path and routes come before the modules'.
  installFastPaths(app);
  const pages = await publicLandingPages(app);
  // Intake registers last (its route follows the modules'); the links reach it once it exists.
  const late: { intake?: IntakeHandle } = {};
  const notifier = await openNotifier(handle, (err) => app.log.error({ err }, 'database notifications'), redis ? { client: redis, prefix } : undefined);
  app.addHook('onClose', async () => notifier.close());
  const feed = leadFeed(notifier, (err) => app.log.error({ err }, 'lead feed'));
  // A landing, policy, tag or contract changed here: every process's pages and intake definitions follow at once.
  const crossLog = (err: unknown, what: string) => app.log.error({ err }, what);
  const pageLinks = crossProcessPages(notifier, { changed: (ids) => pages.changed(ids), stale: () => pages.revalidate() }, crossLog);
  const flushVisits = crossProcessVisitFlush(notifier, async () => late.intake?.flushVisits(), crossLog);
  // Listening before the app answers anything: no change is missed by a stream opened right away.
  await Promise.all([feed.ready(), ...CROSS_PROCESS_CHANNELS.map((c) => notifier.ready(c))]);
  const links: ModuleLinks = {
    landingsChanged: (ids) => pageLinks.changed(ids),
    pagesStale: () => pageLinks.stale(),
    flushVisits,
    leadFollowUps: async () => late.intake?.followUps(),
    renderPreview: (view) => pages.preview(view),
    leadsChanged: (change) => void feed.publish(change).catch((err) => app.log.error({ err }, 'lead feed')),
    watchLeads: (shopId, fn) => feed.watch(shopId, fn),
    watchAllLeads: (fn) => feed.watchAll(fn),
    matchingLeads: (shopId, filter, reader, max) => matchingLeads(app.db, shopId, filter, reader, app.clock(), max),
    deliveriesQueued: () => void notifier.publish(DELIVERY_NOTICE, '').catch((err) => app.log.error({ err }, 'delivery notice')),
    contractProgress: (shopIds) => contracts.progress(shopIds, DASHBOARD_CONTRACT_RECENT_DAYS),
    adTotals: (shopIds, from, to) => adFigures(app.db, { shopIds, from, to }),
    setLandingStatus: async ({ shopId, landingId }, status, reason) => {
      await (status === 'open' ? landingControl.publish(shopId, landingId, null, reason) : landingControl.close(shopId, landingId, null, reason));
    },
    staffText: (channelId, o) => sendStaffText(app.db, channelId, { ...o, deps: { outbound: app.outbound } }),
    stopExperiment: (target, reservationId, reason) => experimentControl.stopScheduled(target, reservationId, reason),
  };
  // The dashboards read the money screens' own computations, so their figures are those screens'.
  const contracts = shopContractsService(app.db, app.clock, links);
  // Scheduled landing open/close (시스템 예약) goes through the landings module's own publish and close.
  const landingControl = landingsService(app.db, app.clock, { changed: links.landingsChanged, flushVisits: links.flushVisits, preview: links.renderPreview });
  // A scheduled experiment stop (시스템 예약 experiment-stop) goes through the experiments' own stop.
  const experimentControl = experimentsService(app.db, app.clock, { changed: links.landingsChanged, flushVisits: links.flushVisits });
  // Pages changed here or in another process: intake's cached definitions go too.
  pages.onChange(() => late.intake?.forget());
  app.decorate('links', links);
  for (const mod of MODULES) await mod(app, links);
  late.intake = await intakeRoutes(app, links);
  await spaPlugin(app);
  if (config.workerEnabled) {
    // The scheduled jobs start once the app is ready and stop before the database closes (onClose runs last-added first).
    // This process's sign of life for /api/health (every process that runs the worker beats).
    const heartbeat = heartbeatJob(app.db, app.clock);
    // Counselors' alerts: intake's automatic assignments (heard on the lead feed, after their commit)
    // and the SLA job's steps, sent on the notifier's own lane; a failure is logged, never thrown back.
    const alerts = alertNotifier(app.db, app.clock, {
      outbound: app.outbound, subject: vapidSubject(config.mailFrom), text: links.staffText, onError: (err) => app.log.error({ err }, 'counselor alert'),
    });
    const jobs = [
      heartbeat,
      purgeJob(app.db, app.clock, { announce: links.leadsChanged, onRun: (run) => app.log.info({ run }, 'automatic purge') }),
      reopenJob(app.db, app.clock, { changed: links.landingsChanged }),
      feedSeqJob(app.db),
      followUpJob(app.db, app.clock, { deliveriesQueued: links.deliveriesQueued }),
      slaJob(app.db, app.clock, {
        announce: links.leadsChanged,
        onRun: (steps) => {
          app.log.info({ steps: steps.length }, 'speed to lead escalation');
          alerts.slaSteps(steps);
        },
      }),
      abandonedImportsJob(app.db, app.clock, { dataDir: config.dataDir, onRun: (ids) => app.log.info({ importIds: ids }, 'abandoned imports cancelled') }),
      reservationsJob(app.db, app.clock, {
        setLandingStatus: links.setLandingStatus,
        stopExperiment: links.stopExperiment,
        onError: (err) => app.log.error({ err }, 'system reservation'),
        onRun: (runs) => app.log.info({ runs }, 'system reservations'),
      }),
    ];
    let scheduler: ReturnType<typeof startScheduler> | undefined;
    app.addHook('onReady', async () => {
      scheduler = startScheduler(jobs, (job, err, runId) => app.log.error({ err, job: job.name, runId }, `scheduled job ${job.name}`));
    });
    app.addHook('onClose', async () => {
      await scheduler?.stop();
      // The alerts the last runs and lead changes queued are sent (or recorded failed) before the database closes.
      await alerts.idle();
      // A clean stop: no row is left saying this worker is alive.
      await heartbeat.forget().catch((err: unknown) => app.log.warn({ err }, 'heartbeat not removed'));
    });
    const sendLevel = eventLevel(config);
    // The delivery worker: woken when leads were accepted (in any process) or jobs queued otherwise, polling meanwhile.
    const delivery = deliveryWorker(app.db, app.clock, {
      concurrency: config.deliveryConcurrency, leaseMs: config.deliveryLeaseMs, deps: { smtpUrl: config.smtpUrl, mailFrom: config.mailFrom, outbound: app.outbound },
      onError: (err) => app.log.error({ err }, 'delivery worker'),
      // One line per send, naming its claim (runId), jobs and leads: a lead is followed from its intake line to here.
      onSent: (sent) => {
        const failed = sent.jobs.some((j) => j.status === 'failed');
        if (sent.ok) app.metrics.deliverySent.inc({ kind: sent.kind }, sent.jobs.length);
        else app.metrics.deliveryFailures.inc({ kind: sent.kind, final: String(failed) }, sent.jobs.length);
        const line = { delivery: sent, leadIds: sent.jobs.map((j) => j.leadId) };
        if (sent.ok) app.log[sendLevel](line, 'delivery sent');
        else app.log.warn(line, failed ? 'delivery failed' : 'delivery will be retried');
      },
    });
    const unwatch = [
      links.watchAllLeads((c) => c.kind === 'created' && delivery.wake()),
      links.watchAllLeads((c) => alerts.leadsChanged(c)),
      notifier.subscribe(DELIVERY_NOTICE, () => delivery.wake()),
    ];
    app.addHook('onReady', async () => delivery.start());
    // Sends still out finish (or their jobs are handed back) before the database closes.
    app.addHook('onClose', async () => {
      for (const off of unwatch) off();
      await delivery.stop();
    });
  }
  return app;
}
