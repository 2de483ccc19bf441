import type { Config } from 'vike/types';
import vikeReact from 'vike-react/config';

// Landing pages are HTML-only: no framework JavaScript reaches the visitor.
export default {
  extends: [vikeReact],
  clientHooks: false,
  prerender: { partial: true, keepDistServer: true },
  passToClient: [],
} satisfies Config;
