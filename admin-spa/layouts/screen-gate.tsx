// A screen the account's type may not read shows 403 (the server refuses its API too).
import { lazy, Suspense, type ReactNode } from 'react';
import type { Screen } from '@contracts/screens.ts';
import { useAuth } from '@/lib/auth.tsx';

const Forbidden = lazy(() => import('./results.tsx').then((m) => ({ default: m.Forbidden })));

export function ScreenGate({ screen, children }: { screen: Screen; children: ReactNode }) {
  const { can } = useAuth();
  if (!can(screen.key)) {
    return (
      <Suspense fallback={null}>
        <Forbidden />
      </Suspense>
    );
  }
  return <>{children}</>;
}
