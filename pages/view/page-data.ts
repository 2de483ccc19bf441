// What the Vike hooks of the public pages render: the view the server loaded and handed in
// through pageContextInit (server/modules/landings/public/renderer.ts). Pages read no
// database and no server code; a request without a view is a 404.
import type { PageContextServer } from 'vike/types';
import { render } from 'vike/abort';
import type { PrivacyPageView } from '../../contracts/landings.ts';
import type { LandingPageView } from './render/picture.tsx';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Vike's pageContext is typed through its global namespace
  namespace Vike {
    interface PageContextServer {
      /** The landing page's view (with its signed form token), or the editor preview's. */
      landingView?: LandingPageView;
      privacyView?: PrivacyPageView;
    }
  }
}

export type PageData = { kind: 'landing'; view: LandingPageView } | { kind: 'privacy'; view: PrivacyPageView };

export function landingData(pc: PageContextServer): PageData {
  if (!pc.landingView) throw render(404);
  return { kind: 'landing', view: pc.landingView };
}

export function privacyData(pc: PageContextServer): PageData {
  if (!pc.privacyView) throw render(404);
  return { kind: 'privacy', view: pc.privacyView };
}
