import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearDrafts, hashOf, keepDrafts, registerDraft, takeDraft, toDraft } from './drafts.ts';
import { MemoryStorage } from './test-storage.ts';

const form = (values: unknown, touched = true) => ({ isFieldsTouched: () => touched, getFieldsValue: () => values });
let closers: Array<() => void> = [];

beforeEach(() => {
  (globalThis as { sessionStorage?: unknown }).sessionStorage = new MemoryStorage();
});
afterEach(() => {
  for (const close of closers) close();
  closers = [];
});

describe('drafts', () => {
  it('keeps the touched open forms of the account, without passwords, for that account only', () => {
    closers.push(registerDraft('a', form({ name: '미소치과', password: 'Secret!234', nested: { newPassword: 'x', memo: '메모' } })));
    closers.push(registerDraft('b', form({ name: 'untouched' }, false)));
    keepDrafts(7);
    expect(takeDraft('b', 7)).toBeUndefined();
    expect(takeDraft('a', 8)).toBeUndefined(); // another account: gone, never shown
    keepDrafts(7);
    expect(takeDraft('a', 7)).toEqual({ name: '미소치과', nested: { memo: '메모' } });
    expect(takeDraft('a', 7)).toBeUndefined(); // taken once
  });

  it('marks dates so they can be revived, and forgets a closed form', () => {
    const day = { $d: new Date('2026-11-21T01:00:00.000Z'), toISOString: () => '2026-11-21T01:00:00.000Z' };
    expect(toDraft({ openAt: day, list: [day, 'x'] })).toEqual({ openAt: { $date: '2026-11-21T01:00:00.000Z' }, list: [{ $date: '2026-11-21T01:00:00.000Z' }, 'x'] });
    const close = registerDraft('c', form({ title: 'a' }));
    close();
    keepDrafts(1);
    expect(takeDraft('c', 1)).toBeUndefined();
  });

  it('discards every draft on a deliberate logout, leaving other storage alone', () => {
    closers.push(registerDraft('a', form({ name: 'x' })), registerDraft('b', form({ name: 'y' })));
    keepDrafts(1);
    sessionStorage.setItem('loginAccount', '{}');
    clearDrafts();
    expect(takeDraft('a', 1)).toBeUndefined();
    expect(takeDraft('b', 1)).toBeUndefined();
    expect(sessionStorage.getItem('loginAccount')).toBe('{}');
  });

  it('hashes the data a form opened on, stably', () => {
    expect(hashOf({ a: 1 })).toBe(hashOf({ a: 1 }));
    expect(hashOf({ a: 1 })).not.toBe(hashOf({ a: 2 }));
    expect(hashOf(undefined)).toBe(hashOf(null));
  });
});
