// What one process's change means to the others, over the notifier (notify.ts: Redis
// pub/sub, PostgreSQL LISTEN/NOTIFY, or — one process — nothing to tell):
// - landings changed: every other process drops their pages and intake's definitions at once
//   (and renders the open ones anew, from the page files the changing process wrote);
// - the agency's details changed: every other process revalidates its pages at once;
// - statistics are about to be read: every process writes the visits it counted in memory.
// The pages' own revalidation every few seconds stays as the safety net for a message lost
// while a process was cut off from Redis or PostgreSQL.
import crypto from 'node:crypto';
import { MAX_PAYLOAD, type Notifier } from './notify.ts';

const PAGES = 'pages';
const FLUSH = 'visits-flush';
const FLUSHED = 'visits-flushed';
/** The channels this file listens on: build() waits until each is heard before serving. */
export const CROSS_PROCESS_CHANNELS = [PAGES, FLUSH, FLUSHED] as const;
/** Landing ids per message: well inside a notification's payload. */
const IDS_PER_MESSAGE = Math.floor(MAX_PAYLOAD / 12);

interface PageLinks {
  /** Landings changed (here): this process's pages at once, the others' on the message. */
  changed(ids: number[]): Promise<void>;
  /** Everything pages show may have changed (here): revalidate here and in every other process. */
  stale(): Promise<void>;
}

/** Each process's messages carry its id: its own, heard back, were already acted on. */
const processId = () => crypto.randomBytes(6).toString('base64url');

/** A message's JSON, or null (logged) for anything else: a bad message must not throw into the notifier. */
function parse<T>(payload: string, log: (err: unknown, what: string) => void): T | null {
  try {
    return JSON.parse(payload) as T;
  } catch (err) {
    log(err, 'cross-process message');
    return null;
  }
}

export function crossProcessPages(
  notifier: Notifier,
  local: { changed(ids: number[]): Promise<void>; stale(): Promise<void> },
  log: (err: unknown, what: string) => void,
): PageLinks {
  if (notifier.transport === 'memory') return local;
  const me = processId();
  notifier.subscribe(PAGES, (payload) => {
    const m = parse<{ o: string; ids?: number[] }>(payload, log);
    if (!m || m.o === me) return;
    const done = Array.isArray(m.ids) ? local.changed(m.ids.filter(Number.isInteger)) : local.stale();
    done.catch((err: unknown) => log(err, 'pages changed in another process'));
  });
  // A failed message must not fail the change that was made: the others catch up by revalidating.
  const tell = async (m: { ids?: number[] }) => {
    const chunks = m.ids ? Array.from({ length: Math.ceil(m.ids.length / IDS_PER_MESSAGE) }, (_, i) => m.ids!.slice(i * IDS_PER_MESSAGE, (i + 1) * IDS_PER_MESSAGE)) : [undefined];
    for (const ids of chunks) await notifier.publish(PAGES, JSON.stringify({ o: me, ...(ids ? { ids } : {}) })).catch((err: unknown) => log(err, 'page message not sent'));
  };
  return {
    async changed(ids) {
      if (!ids.length) return;
      await Promise.all([tell({ ids }), local.changed(ids)]);
    },
    async stale() {
      await Promise.all([tell({}), local.stale()]);
    },
  };
}

/**
 * Writes the visits every process counted, before statistics are read. With Redis the
 * publisher knows how many processes heard the request and waits (at most `waitMs`) for each
 * to answer that its visits are written; on PostgreSQL alone it cannot know, so it does not
 * wait: another process's visits of the last few seconds may then reach the figures on its
 * next write (every 5 s).
 */
export function crossProcessVisitFlush(notifier: Notifier, flushLocal: () => Promise<void>, log: (err: unknown, what: string) => void, waitMs = 1_000): () => Promise<void> {
  if (notifier.transport === 'memory') return flushLocal;
  const me = processId();
  let seq = 0;
  const waiting = new Map<string, { answers: number; wake?: () => void }>();
  notifier.subscribe(FLUSH, (payload) => {
    const m = parse<{ o: string; n: string }>(payload, log);
    if (!m || m.o === me) return;
    flushLocal()
      .catch((err: unknown) => log(err, 'visits not written'))
      .then(() => notifier.publish(FLUSHED, JSON.stringify({ n: m.n })))
      .catch((err: unknown) => log(err, 'visit flush answer not sent'));
  });
  notifier.subscribe(FLUSHED, (payload) => {
    const w = waiting.get(parse<{ n: string }>(payload, log)?.n ?? '');
    if (!w) return;
    w.answers++;
    w.wake?.();
  });
  return async () => {
    const n = `${me}.${++seq}`;
    const w: { answers: number; wake?: () => void } = { answers: 0 };
    waiting.set(n, w);
    try {
      const [, heard] = await Promise.all([flushLocal(), notifier.publish(FLUSH, JSON.stringify({ o: me, n })).catch((err: unknown) => {
          log(err, 'visit flush not sent');
          return null;
        })]);
      const others = heard === null ? 0 : heard - 1;
      const deadline = Date.now() + waitMs;
      while (w.answers < others && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, deadline - Date.now());
          w.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    } finally {
      waiting.delete(n);
    }
  };
}
