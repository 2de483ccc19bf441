import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import { changeTracker } from './unsaved.ts';

/** A form as the tracker sees it: values the test changes, and whether the person touched it. */
function fakeForm(values: Record<string, unknown>) {
  const form = { values, touched: false, isFieldsTouched: () => form.touched, getFieldsValue: () => form.values };
  return form;
}

describe('unsaved changes', () => {
  it('are values the person changed from those the form opened with — typed and deleted again is none', () => {
    const form = fakeForm({ title: '11월 이벤트', openAt: dayjs('2026-11-27T10:00:00+09:00'), bullets: ['a'] });
    const t = changeTracker(form);
    expect(t.changed()).toBe(false);
    form.touched = true;
    expect(t.changed()).toBe(false);
    form.values = { ...form.values, title: '11월 이벤트!' };
    expect(t.changed()).toBe(true);
    form.values = { ...form.values, title: '11월 이벤트' };
    expect(t.changed()).toBe(false);
    form.values = { ...form.values, openAt: dayjs('2026-11-28T10:00:00+09:00') };
    expect(t.changed()).toBe(true);
    form.values = { ...form.values, openAt: dayjs('2026-11-27T10:00:00+09:00'), bullets: ['a', ''] };
    expect(t.changed()).toBe(true);
  });

  it('start again from the values saved, and count a restored draft the person has not touched', () => {
    const form = fakeForm({ name: '가' });
    const t = changeTracker(form);
    form.touched = true;
    form.values = { name: '나' };
    t.saved();
    expect(t.changed()).toBe(false);
    form.touched = false;
    form.values = { name: '다' };
    expect(t.changed()).toBe(false);
    t.markChanged();
    expect(t.changed()).toBe(true);
  });
});
