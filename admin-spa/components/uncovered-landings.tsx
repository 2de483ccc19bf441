// Live landings no contract covers: their leads bill nothing (contractGap, contracts/money.ts).
// Shown on 계약 현황 and both dashboards while any is open, each with why and where to fix it.
import type { ReactNode } from 'react';
import { Alert, Typography } from 'antd';
import type { UncoveredLandingItem } from '@contracts/shop-contracts.ts';

export function UncoveredLandings<T extends UncoveredLandingItem>({ items, link, prefix }: {
  items: readonly T[];
  /** The landing's name as a link to where it is fixed (랜딩 관리 or 계약 관리). */
  link: (item: T) => ReactNode;
  /** Before the landing's name (e.g. its shop). */
  prefix?: (item: T) => ReactNode;
}) {
  if (!items.length) return null;
  return (
    <Alert
      type="warning"
      showIcon
      data-testid="uncovered-landings"
      title={`게시 중인 랜딩 ${items.length}개가 어느 계약에도 들어가지 않아, 그 DB는 청구되지 않습니다.`}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {items.map((u) => (
            <li key={u.landingId}>
              {prefix?.(u)}
              {link(u)} <Typography.Text type="secondary">— {u.reasons.join(' ')}</Typography.Text>
            </li>
          ))}
        </ul>
      }
    />
  );
}
