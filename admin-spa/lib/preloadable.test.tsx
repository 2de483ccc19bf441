import { Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable.ts';

const shown = (C: React.ComponentType) => renderToString(<Suspense fallback={<i>wait</i>}><C /></Suspense>);

describe('preloadable', () => {
  it('suspends while its module loads, and renders at once after a preload', async () => {
    let loads = 0;
    const p = preloadable(async () => {
      loads++;
      return { default: () => <b>ready</b> };
    });
    expect(shown(p.Component)).toContain('wait');
    await p.preload();
    await p.preload();
    expect(shown(p.Component)).toContain('ready');
    expect(loads).toBe(1);
  });

  it('loads again after a failed load', async () => {
    let fail = true;
    const p = preloadable(async () => {
      if (fail) throw new Error('chunk');
      return { default: () => <b>ready</b> };
    });
    await expect(p.preload()).rejects.toThrow('chunk');
    fail = false;
    await p.preload();
    expect(shown(p.Component)).toContain('ready');
  });
});
