// Unsaved input outlives the session that ended under it. When a request meets an ended
// session (401), the values of every open form the user has touched are kept in
// sessionStorage (this tab only) before the page goes to /bclog; after logging in, the same
// form opened on the same data takes them back (use-draft.ts). Passwords are never kept, and
// logging out on purpose discards every draft.
// No antd or dayjs here: this module loads with the login screen.

const PREFIX = 'draft:';

/** What drafts need of a form (an antd FormInstance has both). */
interface DraftSource {
  isFieldsTouched(): boolean;
  getFieldsValue(all: true): unknown;
}

const openForms = new Map<string, DraftSource>();

/** A form is open under `key`; returns the function that closes it. */
export function registerDraft(key: string, form: DraftSource): () => void {
  openForms.set(key, form);
  return () => {
    if (openForms.get(key) === form) openForms.delete(key);
  };
}

/** Values ready for JSON: passwords dropped, dates (dayjs) marked so they can be revived. */
export function toDraft(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDraft);
  if (value && typeof value === 'object') {
    const v = value as { $d?: unknown; toISOString?: () => string };
    if (v.$d instanceof Date && typeof v.toISOString === 'function') return { $date: v.toISOString() };
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).filter(([k]) => !/password/i.test(k)).map(([k, x]) => [k, toDraft(x)]),
    );
  }
  return value;
}

/** Keeps the touched values of every open form of account `who` (just before leaving for /bclog). */
export function keepDrafts(who: number): void {
  for (const [key, form] of openForms) {
    if (!form.isFieldsTouched()) continue;
    try {
      sessionStorage.setItem(PREFIX + key, JSON.stringify({ who, at: Date.now(), values: toDraft(form.getFieldsValue(true)) }));
    } catch {
      // Storage full or unavailable: nothing more can be done on the way out.
    }
  }
}

/**
 * The draft kept under `key` for account `who` (removed as it is taken), if any and younger
 * than a session can live. Another account logging in on this tab never sees it.
 */
export function takeDraft(key: string, who: number): unknown {
  const raw = sessionStorage.getItem(PREFIX + key);
  if (raw === null) return undefined;
  sessionStorage.removeItem(PREFIX + key);
  try {
    const d = JSON.parse(raw) as { who: number; at: number; values: unknown };
    return d.who === who && Date.now() - d.at < 12 * 3_600_000 ? d.values : undefined;
  } catch {
    return undefined;
  }
}

/** Discards every kept draft (a deliberate logout). */
export function clearDrafts(): void {
  for (let i = sessionStorage.length - 1; i >= 0; i--) {
    const key = sessionStorage.key(i);
    if (key?.startsWith(PREFIX)) sessionStorage.removeItem(key);
  }
}

/** A short stable hash, so a draft key can name the data a form was opened on. */
export function hashOf(value: unknown): string {
  const s = JSON.stringify(value ?? null);
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h << 5) + h + s.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}
