// A screen the account's type may not read shows 403 (the server refuses its API too); an
// agency-only one tells a client account so, rather than sending it to ask for a right it cannot have.
import { lazy, Suspense, type ReactNode } from 'react';
import { agencyPart, type Screen } from '@contracts/screens.ts';
import { useAuth } from '@/lib/auth.tsx';

const Forbidden = lazy(() => import('./results.tsx').then((m) => ({ default: m.Forbidden })));

export function ScreenGate({ screen, children }: { screen: Screen; children: ReactNode }) {
  const { account, can } = useAuth();
  if (!can(screen.key)) {
    const agencyOnly = account?.side === 'client' && agencyPart(screen.key) === 'all';
    return (
      <Suspense fallback={null}>
        <Forbidden {...(agencyOnly ? { message: '대행사 전용 화면입니다. 고객사 계정에는 열리지 않습니다.' } : {})} />
      </Suspense>
    );
  }
  return <>{children}</>;
}
