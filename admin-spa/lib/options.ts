// Select options loaded from the API (code tables, account types, shops).
import { codeItemsApi, type CodeKind } from '@contracts/code-items.ts';
import { accountTypesApi } from '@contracts/account-types.ts';
import { shopPermissionsApi } from '@contracts/shop-permissions.ts';
import { useCall } from './use-call.ts';

const OPTIONS = { staleTime: 60_000 };

export function useCodeOptions(kind: CodeKind) {
  const q = useCall(codeItemsApi(kind).options, undefined, OPTIONS);
  return { ...q, options: (q.data?.items ?? []).map((i) => ({ value: i.id, label: i.name })) };
}

export function useAccountTypeOptions() {
  const q = useCall(accountTypesApi.options, undefined, OPTIONS);
  return { ...q, types: q.data?.items ?? [], options: (q.data?.items ?? []).map((t) => ({ value: t.id, label: t.name })) };
}

/** Every shop, for pickers (shop permissions, the account form). */
export function useShopOptions(enabled = true) {
  const q = useCall(shopPermissionsApi.shops, undefined, { ...OPTIONS, enabled });
  return { ...q, options: (q.data?.items ?? []).map((s) => ({ value: s.id, label: s.status === 'active' ? s.name : `${s.name} (사용 중지)` })) };
}
