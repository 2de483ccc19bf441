// The form's side of kept-drafts.ts: every change is written to the draft a moment later (and at
// once when the editor closes); opened again, the editor offers the draft back unless it shows
// those very values. Saving removes it.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormInstance } from 'antd';
import { toDraft } from './drafts.ts';
import { pruneDrafts, readDraft, removeDraft, writeDraft, type KeptDraft } from './kept-drafts.ts';
import { revive } from './use-draft.ts';

/** Typing is written this long after its last key. */
const WRITE_AFTER_MS = 300;

interface KeptDraftControl {
  /** The draft found when the editor opened, until it is restored, discarded or typed over. */
  offer: KeptDraft | null;
  /** Call on every change of the form's values. */
  keep(): void;
  /** Puts the offered draft into the form; answers its values. */
  restore(): unknown;
  discard(): void;
  /** After a save: the draft is no longer needed. */
  clear(): void;
}

/**
 * `key` names the draft (draftKey; null: no draft, e.g. read-only); `base` the saved version the
 * form was opened on; `opened` the values it was opened with (a draft equal to them is no offer).
 */
export function useKeptDraft<V>(form: FormInstance<V>, key: string | null, base: string | null, opened: V): KeptDraftControl {
  const [offer, setOffer] = useState<KeptDraft | null>(() => {
    if (!key) return null;
    pruneDrafts();
    const d = readDraft(key);
    return d && JSON.stringify(d.values) !== JSON.stringify(toDraft(opened)) ? d : null;
  });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);

  const flush = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (pending.current && key) writeDraft(key, form.getFieldsValue(true), base);
    pending.current = false;
  }, [form, key, base]);
  // Closing right after a keystroke still keeps it.
  useEffect(() => flush, [flush]);

  return useMemo(() => ({
    offer,
    keep() {
      if (!key) return;
      // Going on without the offered draft replaces it (the banner says so).
      setOffer(null);
      pending.current = true;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(flush, WRITE_AFTER_MS);
    },
    restore() {
      if (!offer) return undefined;
      form.setFieldsValue(revive(offer.values) as never);
      setOffer(null);
      return form.getFieldsValue(true);
    },
    discard() {
      if (key) removeDraft(key);
      setOffer(null);
    },
    clear() {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      pending.current = false;
      if (key) removeDraft(key);
    },
  }), [offer, key, form, flush]);
}
