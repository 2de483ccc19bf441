import { beforeEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { KEPT_DRAFT_DAYS, draftKey, pruneDrafts, readDraft, removeDraft, writeDraft } from './kept-drafts.ts';
import { MemoryStorage } from './test-storage.ts';

let store: MemoryStorage;
beforeEach(() => {
  store = new MemoryStorage();
  (globalThis as { localStorage?: unknown }).localStorage = store;
});

const DAY = 86_400_000;

describe('kept drafts', () => {
  it('are one per account, shop and document, with dates kept and passwords dropped', () => {
    const mine = draftKey('landing', 7, 3, 12);
    expect(mine).not.toBe(draftKey('landing', 8, 3, 12));
    expect(mine).not.toBe(draftKey('landing', 7, 4, 12));
    expect(draftKey('landing', 7, 3, 'new')).not.toBe(mine);

    writeDraft(mine, { title: '겨울 이벤트', openAt: dayjs('2026-12-01T09:00:00+09:00'), secretPassword: 'x' }, '2026-11-27T06:00:00.000Z', 1000);
    expect(readDraft(mine, 2000)).toEqual({
      at: 1000, base: '2026-11-27T06:00:00.000Z', values: { title: '겨울 이벤트', openAt: { $date: '2026-12-01T00:00:00.000Z' } },
    });
    expect(readDraft(draftKey('landing', 8, 3, 12), 2000)).toBeNull();
    removeDraft(mine);
    expect(readDraft(mine, 2000)).toBeNull();
  });

  it(`expire after ${KEPT_DRAFT_DAYS} days, and pruning removes every expired one, leaving other storage alone`, () => {
    writeDraft(draftKey('landing', 1, 1, 1), { title: 'old' }, null, 0);
    writeDraft(draftKey('landing', 2, 1, 2), { title: 'new' }, null, 5 * DAY);
    store.setItem('loginAccount', '{}');
    expect(readDraft(draftKey('landing', 1, 1, 1), KEPT_DRAFT_DAYS * DAY - 1)).not.toBeNull();
    pruneDrafts(KEPT_DRAFT_DAYS * DAY + 1);
    expect([...store.data.keys()].sort()).toEqual(['leadroom:kept-draft:landing:2:1:2', 'loginAccount']);
  });
});
