// What the Vike hooks of the public pages render: the view the server loaded and handed in
// through pageContextInit (server/modules/landings/public/renderer.ts). Pages read no
// database and no server code; a request without a view is a 404.
import type { PageContextServer } from 'vike/types';
import { render } from 'vike/abort';
import type { LandingView, PrivacyPageView } from '../../contracts/landings.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Vike's pageContext is typed through its global namespace
  namespace Vike {
    interface PageContextServer {
      /** The landing page's view (with its signed form token), or the editor preview's. */
      landingView?: LandingView;
      privacyView?: PrivacyPageView;
    }
  }
}

export type PageData = { kind: 'landing'; view: LandingView } | { kind: 'privacy'; view: PrivacyPageView };

export function landingData(pc: PageContextServer): PageData {
  if (!pc.landingView) throw render(404);
  return { kind: 'landing', view: pc.landingView };
}

export function privacyData(pc: PageContextServer): PageData {
  if (!pc.privacyView) throw render(404);
  return { kind: 'privacy', view: pc.privacyView };
}
