// The pause before a crashed server is started again (npm start and start:cluster).
import { describe, expect, it } from 'vitest';
import { restartDelay, restartLine } from './supervise.mjs';

describe('restartDelay', () => {
  it('replaces at once a process that ran a while, and waits longer each time one keeps dying early, up to 30 s', () => {
    const state = { startedAt: 0, fails: 0 };
    const died = (livedMs: number) => {
      const delay = restartDelay(state, state.startedAt + livedMs);
      state.startedAt += livedMs + delay;
      return delay;
    };
    expect(died(3_000)).toBe(0);
    expect([died(100), died(100), died(100), died(100)]).toEqual([500, 1_000, 2_000, 4_000]);
    for (let i = 0; i < 10; i++) died(100);
    expect(died(100)).toBe(30_000);
    // Once it runs more than 30 s again, the next crash is replaced at once.
    expect(died(31_000)).toBe(0);
    expect(died(100)).toBe(500);
  });

  it('says how the process ended and when it starts again', () => {
    expect(restartLine('서버(pid 7)가', null, 'SIGKILL', 0)).toBe('서버(pid 7)가 신호 SIGKILL로 끝났습니다 — 바로 다시 시작합니다.');
    expect(restartLine('web 1 (pid 8)이(가)', 1, null, 2_000)).toBe('web 1 (pid 8)이(가) 코드 1로 끝났습니다 — 2초 뒤 다시 시작합니다.');
  });
});
