// The current shop of the shop area: chosen in the header, kept in sessionStorage.
import { createContext, useContext, type ReactNode } from 'react';
import type { MyShop } from '@contracts/auth.ts';

export const CURRENT_SHOP_KEY = 'currentShopId';

const ShopContext = createContext<MyShop | null>(null);

export function ShopProvider({ shop, children }: { shop: MyShop; children: ReactNode }) {
  return <ShopContext.Provider value={shop}>{children}</ShopContext.Provider>;
}

/** The current shop; only inside the shop layout. */
export function useCurrentShop(): MyShop {
  const shop = useContext(ShopContext);
  if (!shop) throw new Error('useCurrentShop outside the shop area');
  return shop;
}
