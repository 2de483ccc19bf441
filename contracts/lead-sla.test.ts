import { describe, expect, it } from 'vitest';
import { describeSlaStep, SLA_ACTION_LABELS, SLA_ACTIONS } from './lead-sla.ts';

describe("a lead's history in words for the SLA's steps", () => {
  it('names every step, who held the lead, who has it now, and why', () => {
    expect(SLA_ACTIONS.every((a) => SLA_ACTION_LABELS[a])).toBe(true);
    expect(describeSlaStep('sla-remind', {}, { assigneeName: '김상담', percent: 80, minutes: 5 })).toBe('담당 김상담에게 알림 · 기한의 80%');
    expect(describeSlaStep('sla-notify', {}, { assigneeName: null, minutes: 5, reason: 'deadline' })).toBe('담당 미배분 기한 초과 — 관리자에게 알림 · 5분 기한');
    expect(describeSlaStep('sla-reroute', { assigneeName: '김상담' }, { assigneeName: '이상담', reroute: 2, minutes: 5 })).toBe('김상담 → 이상담 · 2번째 재배분 · 5분 기한');
    expect(describeSlaStep('sla-manager', { assigneeName: '이상담' }, { assigneeName: null, reason: 'max-reroutes' })).toBe('이상담 → 관리자 대기열 · 재배분 횟수를 다 씀');
    expect(describeSlaStep('sla-manager', { assigneeName: null }, { reason: 'no-counselor' })).toBe('미배분 → 관리자 대기열 · 받을 수 있는 상담원이 없음');
  });
});
