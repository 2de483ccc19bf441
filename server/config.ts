import path from 'node:path';

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
  /** How long a landing form's signed render token is accepted (LANDING_TOKEN_MAX_AGE_HOURS). */
  landingTokenMaxAgeHours: number;
  /** Behind a proxy: the client address comes from X-Forwarded-For (TRUST_PROXY=1). */
  trustProxy: boolean;
}

function num(v: string | undefined, fallback: number): number {
  const n = Number(v);
  return v !== undefined && v !== '' && Number.isFinite(n) ? n : fallback;
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
    trustProxy: env.TRUST_PROXY === '1',
    landingTokenMaxAgeHours: num(env.LANDING_TOKEN_MAX_AGE_HOURS, 6),
  };
}
