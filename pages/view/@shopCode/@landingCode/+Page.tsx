import type { LandingView } from '../../../../contracts/landings.ts';
import { LandingBody } from '../../render/landing-body.tsx';

export default function Page({ view }: { view: LandingView }) {
  return <LandingBody view={view} />;
}
