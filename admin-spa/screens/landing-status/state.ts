import type { LandingState } from '@contracts/landings.ts';

/** Tag colours of what a visitor gets right now. */
export const STATE_COLORS: Record<LandingState, string> = { draft: 'default', scheduled: 'blue', open: 'green', ended: 'red' };
