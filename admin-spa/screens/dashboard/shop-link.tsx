import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CURRENT_SHOP_KEY } from '@/lib/shop.tsx';

/** A link into one shop's screen: the shop area opens on that shop. */
export function ShopLink({ shopId, to, children }: { shopId: number; to: string; children: ReactNode }) {
  return (
    <Link to={to} onClick={() => sessionStorage.setItem(CURRENT_SHOP_KEY, String(shopId))}>
      {children}
    </Link>
  );
}
