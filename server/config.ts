import path from 'node:path';
import { parseTrustProxy, type TrustProxy } from './lib/trust-proxy.ts';
import { LEASE_MS } from '../contracts/delivery.ts';
import { parseAllowedRanges } from './lib/outbound.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  loginRateLimit: number;
  intakeRateLimit: number;
  /** SQLite file: commit intake batches on a writer thread (INTAKE_WRITER_THREAD=0 keeps them on the event loop). */
  intakeWriterThread: boolean;
  initialAdminPassword?: string;
  seedDemo: boolean;
  /** Demo accounts' password (tests, screenshots); otherwise each gets a random one, printed once. */
  demoPassword?: string;
  /** Serve built SPA and landing output from here. */
  distDir: string;
  logLevel: string;
  /** `pretty` (default): short lines for a terminal, no line per request; `json`: pino's JSON lines for production (LOG_FORMAT). */
  logFormat: 'pretty' | 'json';
  /** How long a landing form's signed render token is accepted (LANDING_TOKEN_MAX_AGE_HOURS). */
  landingTokenMaxAgeHours: number;
  /**
   * The origin public pages are served from, when not the back office's (PUBLIC_ORIGIN, e.g.
   * https://lp.example.com): /view/* and /api/public/* answer there, the back office does not,
   * and free-form landing scripts are allowed. Null: one origin for everything.
   */
  publicOrigin: string | null;
  /**
   * Behind proxies (TRUST_PROXY): how many there are, or their addresses/CIDRs. The client is the
   * right-most X-Forwarded-For address that is not one of them; false: the socket's peer.
   */
  trustProxy: TrustProxy;
  /** Run the in-process scheduled jobs (the automatic purge) in this process (WORKER=0: not here). */
  workerEnabled: boolean;
  /** Deliveries one worker has in flight at most (DELIVERY_CONCURRENCY). */
  deliveryConcurrency: number;
  /** How long a worker's claim on a delivery job lasts before another worker may take it (DELIVERY_LEASE_MS). */
  deliveryLeaseMs: number;
  /** SMTP server for the e-mail delivery channel (SMTP_URL, e.g. smtps://user:pass@smtp.example.com:465); unset: e-mail channels answer '설정되지 않음'. */
  smtpUrl?: string;
  /** The From of delivery e-mails (MAIL_FROM). */
  mailFrom: string;
  /**
   * Redis for the state every process must share (REDIS_URL, e.g. redis://127.0.0.1:6379): rate
   * limits and cross-process messages. Unset: one process keeps them in memory, as before.
   */
  redisUrl?: string;
  /** Started by `npm run start:cluster` (LEADROOM_CLUSTER=1): one of several processes — LANDING_SECRET is required. */
  cluster: boolean;
  /**
   * On SIGTERM, how long /api/ready answers 503 while everything else is still served, before
   * the process stops (READY_DRAIN_MS): a load balancer's health check sees it and sends no more
   * requests. Default 0 for one process, 5 s in the cluster.
   */
  readyDrainMs: number;
  /** Internal ranges webhooks and SMS gateways may reach, and by plain http (OUTBOUND_ALLOW_CIDRS, e.g. an on-premise CRM); none by default. */
  outboundAllowCidrs: string[];
  /** /metrics for a scraper that is not on this machine: `Authorization: Bearer <METRICS_TOKEN>` (loopback needs none). */
  metricsToken?: string;
}

const DEFAULT_MAIL_FROM = 'Leadroom <no-reply@leadroom.local>';

function num(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : fallback;
}

/** PUBLIC_ORIGIN as a bare origin (scheme, host, port); anything else stops the start with the reason. */
export function originOf(value: string | undefined): string | null {
  if (!value?.trim()) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`PUBLIC_ORIGIN은 https://lp.example.com 처럼 주소의 앞부분만 적습니다: ${value}`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash || url.username) {
    throw new Error(`PUBLIC_ORIGIN은 경로 없이 http(s)://호스트[:포트] 만 적습니다: ${value}`);
  }
  return url.origin;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  return {
    port: num(env.PORT, 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || path.join(dataDir, 'leadroom.sqlite'),
    sessionIdleMinutes: num(env.SESSION_IDLE_MINUTES, 60),
    sessionAbsoluteHours: num(env.SESSION_ABSOLUTE_HOURS, 12),
    loginRateLimit: num(env.LOGIN_RATE_LIMIT, 30),
    intakeRateLimit: num(env.INTAKE_RATE_LIMIT, 30),
    intakeWriterThread: env.INTAKE_WRITER_THREAD !== '0',
    initialAdminPassword: env.INITIAL_ADMIN_PASSWORD || undefined,
    seedDemo: env.SEED_DEMO !== '0',
    demoPassword: env.DEMO_PASSWORD || undefined,
    distDir: path.resolve(env.DIST_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    logFormat: env.LOG_FORMAT === 'json' ? 'json' : 'pretty',
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    landingTokenMaxAgeHours: num(env.LANDING_TOKEN_MAX_AGE_HOURS, 6),
    publicOrigin: originOf(env.PUBLIC_ORIGIN),
    workerEnabled: (env.WORKER ?? '1') !== '0',
    deliveryConcurrency: Math.max(1, num(env.DELIVERY_CONCURRENCY, 20)),
    deliveryLeaseMs: Math.max(1000, num(env.DELIVERY_LEASE_MS, LEASE_MS)),
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    mailFrom: env.MAIL_FROM?.trim() || DEFAULT_MAIL_FROM,
    redisUrl: env.REDIS_URL?.trim() || undefined,
    cluster: env.LEADROOM_CLUSTER === '1',
    readyDrainMs: Math.max(0, num(env.READY_DRAIN_MS, env.LEADROOM_CLUSTER === '1' ? 5000 : 0)),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    outboundAllowCidrs: parseAllowedRanges(env.OUTBOUND_ALLOW_CIDRS),
  };
}
