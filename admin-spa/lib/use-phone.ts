// Whether the screen is a phone's: narrower than antd's `md` breakpoint (Grid.useBreakpoint). Its
// first render knows no breakpoint yet, so that one asks matchMedia: a phone never mounts the
// desktop table (and its request) before the cards.
import { Grid } from 'antd';

/** antd's screenMD. */
const MD = 768;

const wide = () => typeof window === 'undefined' || window.matchMedia(`(min-width: ${MD}px)`).matches;

export function usePhone(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === undefined ? !wide() : !screens.md;
}
