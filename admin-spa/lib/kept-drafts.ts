// Long editors (the landing editor) keep what is being written in this browser's localStorage as
// it is typed, so closing without saving, a reload or a crashed tab loses nothing: opened again,
// the editor offers the draft back. A draft is keyed by account, shop and document, so another
// account on the same browser never sees it; saving removes it; it expires after
// KEPT_DRAFT_DAYS. Only for forms that hold no lead's personal data (a landing's texts, not a
// lead's name or phone): localStorage outlives the session. Passwords are dropped (toDraft).
// No React or antd here (tested on its own; use-kept-draft.ts is the form's side).
import { toDraft } from './drafts.ts';

const PREFIX = 'leadroom:kept-draft:';
export const KEPT_DRAFT_DAYS = 7;
const MAX_AGE_MS = KEPT_DRAFT_DAYS * 86_400_000;

export interface KeptDraft {
  /** When it was written (ms). */
  at: number;
  /** The saved version it was written over (e.g. the document's updatedAt), to tell a draft older than the last save. */
  base: string | null;
  /** The form's values, as toDraft leaves them (revive dates before use). */
  values: unknown;
}

/** The key of a document's draft: the kind of editor, the account, the shop, the document (or 'new'). */
export const draftKey = (kind: string, accountId: number, shopId: number, doc: number | 'new') => `${kind}:${accountId}:${shopId}:${doc}`;

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage blocked (privacy settings): the editor works, without drafts.
    return null;
  }
}

export function writeDraft(key: string, values: unknown, base: string | null, now = Date.now()): void {
  const draft: KeptDraft = { at: now, base, values: toDraft(values) };
  try {
    storage()?.setItem(PREFIX + key, JSON.stringify(draft));
  } catch {
    // Full: the draft is lost, the form is not.
  }
}

/** The draft under `key`, if any and not expired. */
export function readDraft(key: string, now = Date.now()): KeptDraft | null {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return null;
  try {
    const d = JSON.parse(raw) as KeptDraft;
    if (typeof d.at === 'number' && now - d.at < MAX_AGE_MS) return d;
  } catch {
    // Not ours, or damaged: dropped below.
  }
  removeDraft(key);
  return null;
}

export function removeDraft(key: string): void {
  storage()?.removeItem(PREFIX + key);
}

/** Removes every expired draft (of any account: they are of no use to anyone). */
export function pruneDrafts(now = Date.now()): void {
  const s = storage();
  if (!s) return;
  for (let i = s.length - 1; i >= 0; i--) {
    const key = s.key(i);
    if (key?.startsWith(PREFIX)) readDraft(key.slice(PREFIX.length), now);
  }
}
