// React.lazy for a chunk that may already be in: once its module has loaded (a preload as the page
// starts, or an earlier render), the component renders at once instead of suspending. A suspended
// boundary shows its fallback and React 19 then holds the content back for up to 300 ms after it
// (its throttle of Suspense reveals): with the shell and the screen nested, a reload of a screen
// idled twice that long before its first content.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy's own bound: any component, whatever its props
export interface Preloadable<T extends ComponentType<any>> {
  Component: LazyExoticComponent<T>;
  /** Loads the module (once; again after a failure); resolves when it is in. */
  preload(): Promise<unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above
export function preloadable<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): Preloadable<T> {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    ));
  // A thenable that calls back at once: React.lazy's initializer then sees the module before it
  // would throw (suspend).
  const ready = (m: { default: T }) => ({ then: (resolve: (v: { default: T }) => void) => resolve(m) }) as unknown as Promise<{ default: T }>;
  return { Component: lazy(() => (loaded ? ready(loaded) : preload())), preload };
}
