// A region that scrolls on its own (antd's table body with `scroll.y`) must be reachable by
// keyboard, or its hidden rows are only for mouse users: a tab stop with a name.
import { useCallback } from 'react';

/** A ref for a wrapper: its first `selector` inside becomes a focusable, named region. */
export function useScrollRegion(label: string, selector = '.ant-table-body') {
  return useCallback(
    (wrapper: HTMLElement | null) => {
      const region = wrapper?.querySelector<HTMLElement>(selector);
      if (!region) return;
      region.tabIndex = 0;
      region.setAttribute('role', 'region');
      region.setAttribute('aria-label', label);
    },
    [label, selector],
  );
}
