// Select options loaded from the API (code tables, account types, shops).
import { useQuery } from '@tanstack/react-query';
import type { CodeKind } from '../../contracts/code-items.ts';
import { api } from './api.ts';

export function useCodeOptions(kind: CodeKind) {
  const q = useQuery({
    queryKey: ['options', kind],
    queryFn: () => api.get<{ items: Array<{ id: number; name: string; code: string }> }>(`/api/codes/${kind}/options`),
    staleTime: 60_000,
  });
  return { ...q, options: (q.data?.items ?? []).map((i) => ({ value: i.id, label: i.name })) };
}

export function useAccountTypeOptions() {
  const q = useQuery({
    queryKey: ['options', 'account-types'],
    queryFn: () => api.get<{ items: Array<{ id: number; name: string; area: 'admin' | 'shop'; active: boolean }> }>('/api/account-types/options'),
    staleTime: 60_000,
  });
  return { ...q, types: q.data?.items ?? [], options: (q.data?.items ?? []).map((t) => ({ value: t.id, label: t.name })) };
}

/** Every shop, for pickers (shop permissions, the account form). */
export function useShopOptions(enabled = true) {
  const q = useQuery({
    queryKey: ['options', 'shops'],
    queryFn: () => api.get<{ items: Array<{ id: number; shopCode: string; name: string; status: string }> }>('/api/shop-permissions/shops'),
    staleTime: 60_000,
    enabled,
  });
  return { ...q, options: (q.data?.items ?? []).map((s) => ({ value: s.id, label: s.status === 'active' ? s.name : `${s.name} (사용 중지)` })) };
}
