// Whether a form holds changes not yet saved: the person touched it, and its values differ from
// those it was opened (or last saved) with — typing a word and deleting it again is no change.
// No React or antd here: close-guard.ts puts it to work, and it is tested on its own.

/** What the check needs of a form (an antd FormInstance has both). */
export interface ChangeSource {
  isFieldsTouched(): boolean;
  getFieldsValue(all: true): unknown;
}

/** Values as comparable text (dates are dayjs: their toJSON is the instant). */
function snapshot(source: ChangeSource): string | null {
  try {
    return JSON.stringify(source.getFieldsValue(true)) ?? null;
  } catch {
    // A value that cannot be written out (a cycle) is compared by the touch alone.
    return null;
  }
}

export interface ChangeTracker {
  /** The form holds changes not saved. */
  changed(): boolean;
  /** Its values now are its saved state (after a save that keeps the form open). */
  saved(): void;
  /** Values the person did not type but has not saved either (a draft restored). */
  markChanged(): void;
}

/** Tracks `source` from its values now. */
export function changeTracker(source: ChangeSource): ChangeTracker {
  let baseline = snapshot(source);
  let forced = false;
  return {
    changed() {
      if (!forced && !source.isFieldsTouched()) return false;
      const now = snapshot(source);
      return now === null || now !== baseline;
    },
    saved() {
      baseline = snapshot(source);
      forced = false;
    },
    markChanged() {
      forced = true;
    },
  };
}
