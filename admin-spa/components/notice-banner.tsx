// What 시스템 예약 tells everyone in the back office, above every screen of both areas: a
// maintenance window due within a day, one under way (최고관리자 keep working and are told so),
// and the announcements for this account's type (each closable for the session). Asked every
// minute as a background request (and on focus), so an open tab learns of a window without
// keeping its session alive. While a window is under way every other call answers 503: the
// screen gives way to a maintenance page until the notices say the window is over.
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Alert, Button, Flex, Result, Typography } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { systemReservationsApi, untilLabel, windowLabel, type MaintenanceNotice } from '@contracts/system-reservations.ts';
import { setMaintenanceHandler } from '@/lib/api.ts';
import { apiKey, useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';

const api = systemReservationsApi.notices;
const DISMISSED_KEY = 'lr-dismissed-notices';
const EVERY_MS = 60_000;
/** While the screen is closed for maintenance, the notices are asked more often: it reopens soon after the window. */
const DOWN_EVERY_MS = 15_000;

const dismissedIds = (): number[] => {
  try {
    return JSON.parse(sessionStorage.getItem(DISMISSED_KEY) ?? '[]') as number[];
  } catch {
    return [];
  }
};

/** The notices above the screen, and the screen itself unless the back office is closed for maintenance. */
export function NoticeArea({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  // A refusal seen by any call: its message, and when (notices older than that cannot lift it).
  const [down, setDown] = useState<{ message: string; at: number } | null>(null);
  const [dismissed, setDismissed] = useState<number[]>(dismissedIds);
  const notices = useCall(api, undefined, { refetchOnWindowFocus: true });

  const recheck = useCallback(() => client.invalidateQueries({ queryKey: apiKey(api) }), [client]);
  useEffect(() => {
    setMaintenanceHandler((message) => {
      setDown({ message, at: Date.now() });
      void recheck();
    });
    return () => setMaintenanceHandler(null);
  }, [recheck]);

  const data = notices.data;
  const running = data?.maintenance.find((m) => m.running);
  // Closed until notices asked after the refusal say the window is over (or was called off); the
  // screen then mounts again and fetches its data anew.
  const closed = !!down && !(data && !running && notices.dataUpdatedAt > down.at);
  useBackgroundRefresh(api, undefined, closed ? DOWN_EVERY_MS : EVERY_MS);

  const dismiss = (id: number) => {
    const next = [...dismissed, id];
    sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    setDismissed(next);
  };

  const announcements = (data?.announcements ?? []).filter((a) => !dismissed.includes(a.id));
  const banners = (
    <>
      {data?.maintenance.map((m) =>
        m.running && !closed ? <RunningBanner key={m.id} notice={m} exempt={data.maintenanceExempt} /> : !m.running ? <UpcomingBanner key={m.id} notice={m} /> : null,
      )}
      {announcements.map((a) => (
        <Alert
          key={a.id}
          type="info"
          showIcon
          title={a.title}
          description={a.message && <span style={{ whiteSpace: 'pre-line' }}>{a.message}</span>}
          closable={{ onClose: () => dismiss(a.id), 'aria-label': '공지 닫기' }}
        />
      ))}
    </>
  );
  const shown = !!data && (data.maintenance.length > 0 || announcements.length > 0);

  return (
    <>
      {shown && (
        <Flex vertical gap={8} style={{ marginBottom: 16 }} role="region" aria-label="시스템 알림">
          {banners}
        </Flex>
      )}
      {closed ? <MaintenanceResult message={down.message} notice={running} onRetry={() => void recheck()} /> : children}
    </>
  );
}

function UpcomingBanner({ notice }: { notice: MaintenanceNotice }) {
  return (
    <Alert
      type="warning"
      showIcon
      title={`${windowLabel(notice.startsAt, notice.endsAt)} 시스템 점검이 예정되어 있습니다.`}
      description={
        <>
          {notice.message && <div style={{ whiteSpace: 'pre-line' }}>{notice.message}</div>}
          <Typography.Text type="secondary">점검 중에는 최고관리자 외에는 관리 화면을 쓸 수 없습니다. 랜딩 페이지와 DB 접수, 전송은 계속 동작합니다.</Typography.Text>
        </>
      }
    />
  );
}

function RunningBanner({ notice, exempt }: { notice: MaintenanceNotice; exempt: boolean }) {
  const until = untilLabel(notice.endsAt, new Date());
  return (
    <Alert
      type="error"
      showIcon
      title={exempt ? `시스템 점검 중 (~${until}까지) — 최고관리자만 사용할 수 있습니다.` : `시스템 점검 중입니다 (~${until}까지).`}
      description={notice.message && <span style={{ whiteSpace: 'pre-line' }}>{notice.message}</span>}
    />
  );
}

/** The screen while the back office is closed for maintenance: what the server said, until when, and a way to look again. */
function MaintenanceResult({ message, notice, onRetry }: { message: string; notice: MaintenanceNotice | undefined; onRetry: () => void }) {
  return (
    <Result
      icon={<ToolOutlined />}
      status="warning"
      title="시스템 점검 중입니다"
      subTitle={
        <>
          {/* The server's sentence when the window is not known here yet; else its parts, without saying 점검 중 twice. */}
          {notice ? (
            <>
              {notice.message && <div style={{ whiteSpace: 'pre-line' }}>{notice.message}</div>}
              <div>점검 시간: {windowLabel(notice.startsAt, notice.endsAt)} (한국 시간)</div>
            </>
          ) : (
            <div>{message}</div>
          )}
          <div>점검이 끝나면 이 화면이 저절로 다시 열립니다. 랜딩 페이지와 DB 접수는 계속 동작합니다.</div>
        </>
      }
      extra={
        <Button type="primary" onClick={onRetry}>
          다시 확인
        </Button>
      }
    />
  );
}
