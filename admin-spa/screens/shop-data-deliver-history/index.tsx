// DB 전송 이력: every attempt to deliver the shop's leads (the receiver's answer, how long it
// took, which try it was, where the job stands now), and the deliveries still waiting or failed,
// retried by hand. The screen polls only the shop's counts (no personal data, nothing recorded)
// — every 5 s while something is under way, every 30 s otherwise — and refreshes its lists when
// they move. A lead's name opens the DB 현황 detail.
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Badge, Tabs } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { deliveryApi } from '@contracts/delivery-history.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { ERROR, WARNING_TEXT } from '@/lib/theme.ts';
import { useSearchId } from '@/lib/search-state.ts';
import { LeadDrawer } from '@/components/leads/lead-drawer.tsx';
import { AttemptsTab } from './attempts-tab.tsx';
import { JobsTab } from './jobs-tab.tsx';

const TABS = ['attempts', 'jobs'] as const;
type Tab = (typeof TABS)[number];

/** What a move in the counts makes stale. */
const LIVE_VIEWS = [deliveryApi.history, deliveryApi.jobs, deliveryApi.progress];

export default function ShopDataDeliverHistory() {
  const shop = useCurrentShop();
  const { can, account } = useAuth();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'attempts';
  const jobIds = search.get('jobIds') ?? undefined;
  const [openId, openLead] = useSearchId('lead');
  const canOpen = can('database-status');

  const queryClient = useQueryClient();
  const summary = useCall(deliveryApi.summary, { params: { shopId: shop.id } }, {
    refetchInterval: (q) => (q.state.data && q.state.data.pending + q.state.data.sending > 0 ? 5000 : 30_000),
    refetchIntervalInBackground: false,
  });
  const s = summary.data;
  const signature = s ? `${s.pending}/${s.sending}/${s.failed}/${s.latestAttemptId ?? 0}` : null;
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (signature === null) return;
    // The first answer is what the lists were loaded with; later moves refresh them.
    if (seen.current !== null && seen.current !== signature) void invalidate(queryClient, LIVE_VIEWS);
    seen.current = signature;
  }, [signature, queryClient]);

  const open = s ? s.pending + s.sending + s.failed : 0;
  return (
    <>
      <Tabs
        activeKey={tab}
        // Each tab's own view; one send's jobs (jobIds) stay when switching.
        onChange={(k) => setSearch(() => {
          const next = new URLSearchParams();
          if (k !== 'attempts') next.set('tab', k);
          if (jobIds) next.set('jobIds', jobIds);
          return next;
        })}
        items={[
          { key: 'attempts', label: '전송 이력', children: tab === 'attempts' && <AttemptsTab shopId={shop.id} onOpen={canOpen ? openLead : undefined} /> },
          {
            key: 'jobs',
            label: (
              <span>
                대기·실패 중 <Badge count={open} overflowCount={9999} color={s?.failed ? ERROR : WARNING_TEXT} showZero={false} />
              </span>
            ),
            children: tab === 'jobs' && <JobsTab shopId={shop.id} onOpen={canOpen ? openLead : undefined} />,
          },
        ]}
      />
      {canOpen && (
        <LeadDrawer shopId={shop.id} id={openId} writable={can('database-status', 'write')} canUnmask={account!.canUnmask} onOpen={openLead} onClose={() => openLead(null)} />
      )}
    </>
  );
}
