import type { Config } from 'vike/types';
import vikeReact from 'vike-react/config';

// Landing pages are HTML-only: no framework JavaScript reaches the visitor.
export default {
  extends: [vikeReact],
  clientHooks: false,
  // `npm run prerender` renders open landings from the database; a build never needs one.
  prerender: { partial: true, keepDistServer: true, disableAutoRun: true },
  passToClient: [],
} satisfies Config;
