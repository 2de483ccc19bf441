// Closing a form with unsaved changes asks first. A stray Esc, the drawer's ×, 닫기 or 취소 would
// otherwise throw the person's work away: every modal and drawer form closes through
// useCloseGuard's requestClose, and each form in it is tracked with useTrackChanges (the form
// may live in a child of the drawer — the guard is handed down). Saving closes directly.
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { App } from 'antd';
import { changeTracker, type ChangeSource, type ChangeTracker } from './unsaved.ts';

export interface CloseGuard {
  /** Closes at once when nothing tracked changed; otherwise asks whether to close anyway. */
  requestClose(): void;
  /** Tracks a form until the returned function is called (useTrackChanges does this). */
  track(tracker: ChangeTracker): () => void;
}

/** The question's words; closeText names what closing does. */
interface CloseGuardOptions {
  content?: ReactNode;
}

const CLOSE_GUARD_TITLE = '저장하지 않은 변경 사항이 있습니다';
const DEFAULT_CONTENT = '닫으면 입력한 내용이 사라집니다.';

export function useCloseGuard(onClose: () => void, options: CloseGuardOptions = {}): CloseGuard {
  const { modal } = App.useApp();
  const trackers = useRef(new Set<ChangeTracker>());
  const asking = useRef(false);
  // The latest close and words, for a question asked from an older render's handler.
  const latest = useRef({ onClose, options });
  useEffect(() => {
    latest.current = { onClose, options };
  });

  const requestClose = useCallback(() => {
    // Esc pressed again while asking does not ask twice.
    if (asking.current) return;
    if (![...trackers.current].some((t) => t.changed())) {
      latest.current.onClose();
      return;
    }
    asking.current = true;
    modal.confirm({
      title: CLOSE_GUARD_TITLE,
      content: latest.current.options.content ?? DEFAULT_CONTENT,
      okText: '닫기',
      okButtonProps: { danger: true },
      cancelText: '계속 편집',
      // Enter (or a second Esc) keeps the work.
      autoFocusButton: 'cancel',
      // Answered is no longer asking, at once: afterClose waits for the question to leave the
      // screen, and an Esc pressed meanwhile would be ignored.
      onOk: () => {
        asking.current = false;
        latest.current.onClose();
      },
      onCancel: () => {
        asking.current = false;
      },
      afterClose: () => {
        asking.current = false;
      },
    });
  }, [modal]);

  const track = useCallback((tracker: ChangeTracker) => {
    trackers.current.add(tracker);
    return () => void trackers.current.delete(tracker);
  }, []);

  return useMemo(() => ({ requestClose, track }), [requestClose, track]);
}

interface TrackedForm {
  /** The form's values now are saved (it stays open). */
  saved(): void;
  /** Values restored from a draft count as changes until saved. */
  markChanged(): void;
}

/**
 * Tracks `form` for `guard` while `active` (a modal's form: while it is open), from its values
 * when tracking starts — call it after the hook or effect that fills the form; when `filledFrom`
 * changes (the form was filled anew), tracking starts again from the new values.
 */
export function useTrackChanges(guard: CloseGuard, form: ChangeSource, active = true, filledFrom?: unknown): TrackedForm {
  const tracker = useRef<ChangeTracker | null>(null);
  useEffect(() => {
    if (!active) return;
    const t = changeTracker(form);
    tracker.current = t;
    const untrack = guard.track(t);
    return () => {
      untrack();
      if (tracker.current === t) tracker.current = null;
    };
  }, [guard, form, active, filledFrom]);
  return useMemo(() => ({ saved: () => tracker.current?.saved(), markChanged: () => tracker.current?.markChanged() }), []);
}
