// Shows nothing while the stored account is read; without one, back to `/`.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { useAuth } from '@/lib/auth.tsx';

export function Guard({ children }: { children: ReactNode }) {
  const { account, loading } = useAuth();
  if (loading) return null;
  if (!account) return <Navigate to="/" replace />;
  return <>{children}</>;
}
