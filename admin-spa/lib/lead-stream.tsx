// The shop's lead stream, open while the shop area is: new and changed leads refresh every
// screen showing leads without a reload, a new lead is announced, and a counselor hears a
// short tone for a lead assigned to them (when they turned it on). A dropped connection
// reconnects by itself; on reconnecting, the screens refetch what they missed.
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { App, Button, Tooltip } from 'antd';
import { BellOutlined, BellFilled } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { LEAD_STREAM_EVENT, leadsApi, type LeadStreamEvent } from '@contracts/leads.ts';
import { leadCalendarApi } from '@contracts/lead-calendar.ts';
import { shopDashboardApi } from '@contracts/shop-dashboard.ts';
import { csStatsApi } from '@contracts/cs-stats.ts';
import { leadDeletionApi } from '@contracts/lead-deletion.ts';
import { shopContractsApi } from '@contracts/shop-contracts.ts';
import { urlOf } from './api.ts';
import { refreshInBackground } from './query-client.ts';
import { coalesce, useServerEvents } from './server-events.ts';
import { showNotification } from './alerts.ts';

const SOUND_KEY = 'leadSound';

/** Endpoints whose data a lead change makes stale. */
const LEAD_VIEWS = [
  leadsApi.list, leadsApi.get, leadCalendarApi.month, leadCalendarApi.day, shopDashboardApi.get, csStatsApi.shop, leadDeletionApi.deleted, leadDeletionApi.upcoming,
  shopContractsApi.status, shopContractsApi.leads, shopContractsApi.returnable,
];

function tone(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.45);
    osc.onended = () => void ctx.close();
  } catch {
    // No audio here: the notification still shows.
  }
}

export function useLeadSound(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => localStorage.getItem(SOUND_KEY) === '1');
  return [on, (next) => {
    localStorage.setItem(SOUND_KEY, next ? '1' : '0');
    setOn(next);
  }];
}

/**
 * Listens to the shop's lead stream while mounted (`enabled`: the account may read leads).
 * Answers how many leads arrived — for a counselor, were handed to them — since `seen()`
 * (the menu's badge on DB 현황, cleared there). With `notify` (the account's browser alerts on,
 * the permission given), leads handed to the account also show a notification of the browser —
 * seen over other windows and from a background tab.
 */
export function useLeadStream(shopId: number, enabled: boolean, sound: boolean, notify = false): { fresh: number; seen(): void } {
  const queryClient = useQueryClient();
  // Counted per shop: another shop's count does not carry over when the shop changes.
  const [fresh, setFresh] = useState({ shopId, n: 0 });
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const refresh = useMemo(() => coalesce(() => refreshInBackground(queryClient, LEAD_VIEWS), 500), [queryClient]);

  useServerEvents<LeadStreamEvent>(enabled ? urlOf(leadsApi.stream, { params: { shopId } }) : null, LEAD_STREAM_EVENT, {
    onReconnect: refresh,
    onEvent(event) {
      refresh();
      const mine = event.mine.length;
      if (event.kind === 'created' || mine) {
        const count = mine || event.ids.length;
        setFresh((f) => ({ shopId, n: (f.shopId === shopId ? f.n : 0) + count }));
        notification.info({
          key: 'lead-stream',
          title: mine ? `새로 배분된 DB ${count}건` : `새 DB ${count}건이 접수되었습니다`,
          actions: (
            <Button type="primary" size="small" onClick={() => navigate('/database-status')}>
              DB 현황 보기
            </Button>
          ),
          placement: 'bottomRight',
          duration: 6,
        });
        if (mine && sound) tone();
        if (mine && notify) {
          const one = mine === 1 ? event.mine[0]! : null;
          showNotification(
            event.kind === 'created' ? `새 DB ${count}건이 배분되었습니다` : `DB ${count}건이 나에게 배분되었습니다`,
            'Leadroom DB 현황에서 확인하세요.',
            one ? `lead-${one}` : 'leads',
            () => navigate(one ? `/database-status?lead=${one}` : '/database-status'),
          );
        }
      }
    },
  });
  const seen = useCallback(() => setFresh({ shopId, n: 0 }), [shopId]);
  return { fresh: fresh.shopId === shopId ? fresh.n : 0, seen };
}

/** The header's bell: a tone for newly assigned leads, on or off. */
export function LeadSoundToggle({ on, onChange }: { on: boolean; onChange: (on: boolean) => void }) {
  return (
    <Tooltip title={on ? '새로 배분된 DB 알림음 끄기' : '새로 배분된 DB 알림음 켜기'}>
      <Button type="text" aria-pressed={on} aria-label="DB 알림음" icon={on ? <BellFilled /> : <BellOutlined />} onClick={() => onChange(!on)} />
    </Tooltip>
  );
}
