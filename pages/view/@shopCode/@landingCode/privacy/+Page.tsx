import type { PrivacyPageView } from '../../../../../contracts/landings.ts';
import { PrivacyBody } from '../../../render/privacy-body.tsx';

export default function Page({ view }: { view: PrivacyPageView }) {
  return <PrivacyBody view={view} />;
}
