import { describe, expect, it } from 'vitest';
import { contrastWarning, formatRatio, landingColorPairs } from './color-pairs.ts';

const byKey = (colors: Parameters<typeof landingColorPairs>[0]) => Object.fromEntries(landingColorPairs(colors).map((p) => [p.key, p]));

describe('landing colour pairs', () => {
  it('passes a dark text on a light background with a deep theme colour', () => {
    const pairs = landingColorPairs({ primary: '#0e7c86', background: '#eef7f7', text: '#1f2329' });
    expect(pairs.map((p) => p.key)).toEqual(['text-on-page', 'text-on-background', 'button', 'link']);
    expect(pairs.every((p) => p.ok)).toBe(true);
    expect(pairs.map(contrastWarning)).toEqual([null, null, null, null]);
  });

  it('warns about light grey text on the background and on the white column', () => {
    const p = byKey({ primary: '#0e7c86', background: '#f5f7fb', text: '#999999' });
    expect(p['text-on-page']!.ok).toBe(false);
    expect(p['text-on-background']!.ok).toBe(false);
    expect(contrastWarning(p['text-on-background']!)).toBe('글자와 배경의 명암비 2.6:1 — 4.5:1 이상을 권장합니다.');
  });

  it('uses the renderer rule for the button text: near-black on a light theme colour', () => {
    const p = byKey({ primary: '#ffd400', background: '#ffffff', text: '#1f2329' });
    expect(p.button!.foreground).toBe('#1f1f1f');
    expect(p.button!.ok).toBe(true);
    // The same yellow as link text on white is unreadable.
    expect(p.link!.ok).toBe(false);
  });

  it('warns about a mid-tone theme colour neither white nor black reads on', () => {
    const p = byKey({ primary: '#1677ff', background: '#f5f7fb', text: '#1f2329' });
    expect(p.button!.foreground).toBe('#ffffff');
    expect(p.button!.ok).toBe(false);
    expect(contrastWarning(p.button!)).toBe('버튼 글자와 강조색의 명암비 4.1:1 — 4.5:1 이상을 권장합니다.');
  });

  it('skips a colour still being typed', () => {
    const p = byKey({ primary: '#12', background: '#ffffff', text: '#1f2329' });
    expect(p.button!.ratio).toBeNull();
    expect(p.button!.ok).toBe(true);
    expect(contrastWarning(p.button!)).toBeNull();
  });

  it('rounds down, so 4.47 never reads as the minimum', () => {
    expect(formatRatio(4.47)).toBe('4.4:1');
    expect(formatRatio(21)).toBe('21.0:1');
  });
});
