import type { LandingPageView } from '../../render/picture.tsx';
import { LandingBody } from '../../render/landing-body.tsx';

export default function Page({ view }: { view: LandingPageView }) {
  return <LandingBody view={view} />;
}
