// The landing secret and the signed render stamp a public form posts back (minimum
// fill time, maximum age). The page's Content-Security-Policy is pages/view/render/csp.ts.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const secrets = new Map<string, Buffer>();

/** LANDING_SECRET, else a random secret kept in <dataDir>/landing-secret (created once). */
export function landingSecret(dataDir: string): Buffer {
  if (process.env.LANDING_SECRET) return Buffer.from(process.env.LANDING_SECRET);
  const file = path.join(dataDir, 'landing-secret');
  const cached = secrets.get(file);
  if (cached) return cached;
  let value: string;
  try {
    value = fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    value = fs.readFileSync(file, 'utf8').trim();
  }
  const secret = Buffer.from(value);
  secrets.set(file, secret);
  return secret;
}

/** Where the landing secret comes from: LANDING_SECRET, or the data directory's file. */
const landingSecretSource = (env: NodeJS.ProcessEnv = process.env): 'env' | 'file' => (env.LANDING_SECRET ? 'env' : 'file');

/** Shortest LANDING_SECRET taken in cluster mode: a guessable secret lets anyone sign form tokens. */
const MIN_CLUSTER_SECRET = 16;

/** An HMAC of a fixed text with the secret: equal for equal secrets, and telling nothing of the secret. */
function secretFingerprint(secret: Buffer): string {
  return crypto.createHmac('sha256', secret).update('leadroom landing secret fingerprint v1').digest('hex').slice(0, 32);
}

/** The fingerprint every process of the database compares with (db/shared-settings.ts). */
interface FingerprintStore {
  claim(s: { value: string; source: string }, now: Date): Promise<{ value: string; source: string }>;
  replace(s: { value: string; source: string }, now: Date): Promise<void>;
}

interface SecretCheck {
  dataDir: string;
  /** LEADROOM_CLUSTER=1: LANDING_SECRET is required. */
  cluster: boolean;
  /** PostgreSQL: processes of other machines may share the database. */
  sharedDatabase: boolean;
  store: FingerprintStore;
  now: Date;
  warn: (message: string) => void;
  env?: NodeJS.ProcessEnv;
}

/**
 * At start: the secret this process signs and checks form tokens with must be every other
 * process's, or a form rendered by one is refused by another ("보안 토큰이 올바르지 않습니다").
 * - Cluster mode requires LANDING_SECRET.
 * - The first process records the secret's fingerprint; a process whose secret gives another
 *   one refuses to start — except LANDING_SECRET replacing a fingerprint of the file default
 *   (the move from one process to several), and LANDING_SECRET_ROTATE=1 (a change on purpose,
 *   every process stopped).
 * - The file default on SQLite is not checked: one machine, one data directory, one file —
 *   exactly as before.
 */
export async function checkLandingSecret(o: SecretCheck): Promise<void> {
  const env = o.env ?? process.env;
  const source = landingSecretSource(env);
  if (o.cluster && source !== 'env') {
    throw new Error(
      'LEADROOM_CLUSTER=1(여러 프로세스)로 시작할 때는 LANDING_SECRET이 필요합니다. ' +
        `모든 웹·워커 프로세스에 같은 값(${MIN_CLUSTER_SECRET}자 이상의 임의 문자열, 예: openssl rand -hex 32)을 설정하세요.`,
    );
  }
  if (o.cluster && env.LANDING_SECRET!.length < MIN_CLUSTER_SECRET) {
    throw new Error(`LANDING_SECRET이 너무 짧습니다: ${MIN_CLUSTER_SECRET}자 이상의 임의 문자열을 모든 프로세스에 같게 설정하세요.`);
  }
  if (source === 'file' && !o.sharedDatabase) return;
  const secret = source === 'env' ? Buffer.from(env.LANDING_SECRET!) : landingSecret(o.dataDir);
  const mine = { value: secretFingerprint(secret), source };
  const recorded = await o.store.claim(mine, o.now);
  if (recorded.value === mine.value) return;
  if (source === 'env' && (recorded.source === 'file' || env.LANDING_SECRET_ROTATE === '1')) {
    await o.store.replace(mine, o.now);
    o.warn(
      recorded.source === 'file'
        ? 'LANDING_SECRET을 이 데이터베이스의 비밀값으로 기록했습니다(이전: 데이터 폴더의 파일). 이전에 렌더링된 신청서는 다시 열어야 제출됩니다.'
        : 'LANDING_SECRET_ROTATE=1: 새 LANDING_SECRET을 기록했습니다. 이전 값으로 렌더링된 신청서는 다시 열어야 제출됩니다.',
    );
    return;
  }
  throw new Error(
    source === 'env'
      ? 'LANDING_SECRET이 이 데이터베이스를 쓰는 다른 프로세스의 값과 다릅니다: 한 프로세스가 만든 신청서를 다른 프로세스가 거부하게 됩니다. ' +
          '모든 프로세스에 같은 LANDING_SECRET을 설정하세요. 일부러 바꾸는 경우에는 모든 프로세스를 멈춘 뒤 한 번 LANDING_SECRET_ROTATE=1과 함께 시작하세요.'
      : `LANDING_SECRET이 설정되지 않아 이 프로세스는 ${path.join(o.dataDir, 'landing-secret')}의 비밀값을 쓰는데, ` +
          '이 데이터베이스를 쓰는 다른 프로세스의 비밀값과 다릅니다. 모든 프로세스에 같은 LANDING_SECRET을 설정하세요.',
  );
}

function mac(secret: Buffer, landingId: number, ms: number): string {
  return crypto.createHmac('sha256', secret).update(`${landingId}.${ms}`).digest('base64url').slice(0, 22);
}

/** `<ms base36>.<hmac>`: when the form was rendered, bound to the landing. */
export function signRenderStamp(secret: Buffer, landingId: number, at: Date): string {
  const ms = at.getTime();
  return `${ms.toString(36)}.${mac(secret, landingId, ms)}`;
}

/** The render time of a genuine stamp for this landing, else null. */
export function verifyRenderStamp(secret: Buffer, landingId: number, token: unknown): number | null {
  if (typeof token !== 'string' || token.length > 40) return null;
  const [head, sig] = token.split('.');
  if (!head || !sig || !/^[0-9a-z]{1,12}$/.test(head)) return null;
  const ms = parseInt(head, 36);
  const expected = Buffer.from(mac(secret, landingId, ms));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? ms : null;
}
