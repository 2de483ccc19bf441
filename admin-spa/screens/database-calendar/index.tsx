// DB 캘린더: the current shop's month by Seoul day — leads received and appointments booked on
// each day, the first appointments named in the cell — and beside it the chosen day in full.
// A lead's name opens its detail (the drawer DB 현황 uses). The chosen day (?day=) and the open
// lead (?lead=) are in the URL, so the dashboard can link to a day. A counselor sees only their
// own leads; the lead stream keeps it current.
import { Link } from 'react-router-dom';
import dayjs, { type Dayjs } from 'dayjs';
import { Alert, Button, Calendar, Card, Col, Divider, Empty, List, Row, Skeleton, Space, Typography } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { leadCalendarApi, type CalendarAppointment, type CalendarMonth, type CalendarReceived } from '@contracts/lead-calendar.ts';
import { DAY_RE, seoulDay } from '@contracts/kst.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber, formatTime } from '@/lib/format.ts';
import { useScrollRegion } from '@/lib/scroll-region.ts';
import { useSearchPatch } from '@/lib/search-state.ts';
import { StatusTag } from '@/components/status-tag.tsx';
import { ServerError } from '@/layouts/results.tsx';
import { LeadDrawer } from '@/components/leads/lead-drawer.tsx';
import './database-calendar.css';

const DAY = 'YYYY-MM-DD';
/** Appointments a cell names before it says "+N" (the server sends up to three a day). */
const CELL_NAMES = 3;

/** "14:30", in Seoul: the server puts each lead on its Seoul day, so its time is read there too. */
const count = (n: number) => `${formatNumber(n)}건`;

export default function DatabaseCalendar() {
  const shop = useCurrentShop();
  const { account, can } = useAuth();
  const mine = account!.dataScope === 'assigned';
  const canOpen = can('database-status', 'read');
  const [search, patch] = useSearchPatch();
  const today = seoulDay(new Date());
  const asked = search.get('day');
  const day = asked && DAY_RE.test(asked) && dayjs(asked).format(DAY) === asked ? asked : today;
  const month = day.slice(0, 7);
  const openId = Number(search.get('lead')) || null;

  const choose = (d: string) => patch({ day: d === today ? null : d, lead: null });
  /** Another month opens on its 1st, or on today when today is in it. */
  const chooseMonth = (m: Dayjs) => choose(m.isSame(dayjs(today), 'month') ? today : m.startOf('month').format(DAY));
  const openLead = (id: number | null) => patch({ lead: id ? String(id) : null });

  const params = { shopId: shop.id };
  const monthQ = useCall(leadCalendarApi.month, { params, query: { month } }, { keepPrevious: true });
  const m = monthQ.data;

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card variant="borderless" styles={{ body: { paddingTop: 12 } }}>
            {monthQ.isError ? (
              <ServerError message={(monthQ.error as Error).message} onRetry={() => monthQ.refetch()} />
            ) : (
              <MonthCalendar day={day} today={today} month={m?.month === month ? m : undefined} loading={monthQ.isFetching} onChoose={choose} onMonth={chooseMonth} />
            )}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <DayPanel shopId={shop.id} day={day} mine={mine} canList={canOpen} onOpen={canOpen ? openLead : undefined} />
        </Col>
      </Row>
      {canOpen && (
        <LeadDrawer shopId={shop.id} id={openId} writable={can('database-status', 'write')} canUnmask={account!.canUnmask} onOpen={openLead} onClose={() => openLead(null)} />
      )}
    </>
  );
}

function MonthCalendar({ day, today, month, loading, onChoose, onMonth }: {
  day: string;
  today: string;
  /** The shown month's figures, its grid's neighbouring days included (undefined while they load). */
  month: CalendarMonth | undefined;
  loading: boolean;
  onChoose: (day: string) => void;
  onMonth: (month: Dayjs) => void;
}) {
  const byDay = new Map(month?.days.map((d) => [d.day, d]));
  const named = new Map<string, CalendarAppointment[]>();
  for (const a of month?.appointments ?? []) {
    const d = seoulDay(a.reservedAt);
    named.set(d, [...(named.get(d) ?? []), a]);
  }
  const shown = day.slice(0, 7);
  // The month's own totals: the grid's neighbouring days count toward their own months.
  const totals = month?.days
    .filter((d) => d.day.startsWith(shown))
    .reduce((s, d) => ({ received: s.received + d.received, appointments: s.appointments + d.appointments }), { received: 0, appointments: 0 });
  const value = dayjs(day);

  const cell = (current: Dayjs) => {
    const key = current.format(DAY);
    // Days of the neighbouring months are greyed by the calendar but keep their figures: an appointment on screen is never hidden.
    const figures = byDay.get(key);
    if (!figures || (!figures.received && !figures.appointments)) return null;
    const list = named.get(key) ?? [];
    // Four lines fit a cell: the figures and three names, or two names and "+N".
    const names = figures.appointments > CELL_NAMES ? list.slice(0, CELL_NAMES - 1) : list;
    const rest = figures.appointments - names.length;
    return (
      <div className="lr-cal-cell">
        <div className="lr-cal-figures">
          {figures.received > 0 && <span className="lr-cal-received">접수 {formatNumber(figures.received)}</span>}
          {figures.appointments > 0 && <span className="lr-cal-booked">예약 {formatNumber(figures.appointments)}</span>}
        </div>
        {names.map((a) => (
          <div key={a.id} className="lr-cal-appointment" title={`${formatTime(a.reservedAt)} ${a.name} (${a.csStatus})`}>
            {/* Purple while still booked; grey once the call moved it on (통화완료, 계약 …). */}
            <span className={a.csStatus === '상담예약' ? 'lr-cal-dot lr-cal-dot-open' : 'lr-cal-dot'} />
            <span className="lr-cal-time">{formatTime(a.reservedAt)}</span> {a.name}
          </div>
        ))}
        {rest > 0 && <div className="lr-cal-more">+{formatNumber(rest)}건</div>}
      </div>
    );
  };

  return (
    <Calendar
      className="lr-calendar"
      value={value}
      // A little taller than the calendar's three lines: the figures and three appointments.
      styles={{ itemContent: { height: 88 } }}
      onSelect={(d) => onChoose(d.format(DAY))}
      cellRender={(current, info) => (info.type === 'date' ? cell(current) : info.originNode)}
      headerRender={() => (
        <div className="lr-cal-header">
          <Space size={8}>
            <Button icon={<LeftOutlined />} aria-label="이전 달" onClick={() => onMonth(value.subtract(1, 'month'))} />
            <Typography.Title level={4} style={{ margin: 0, minWidth: 130, textAlign: 'center' }}>
              {value.format('YYYY년 M월')}
            </Typography.Title>
            <Button icon={<RightOutlined />} aria-label="다음 달" onClick={() => onMonth(value.add(1, 'month'))} />
            <Button onClick={() => onChoose(today)} disabled={day === today}>
              오늘
            </Button>
          </Space>
          <Space size={16} className="lr-cal-totals">
            {totals ? (
              <>
                <span>
                  <span className="lr-cal-received">■</span> 이달 접수 <b>{count(totals.received)}</b>
                </span>
                <span>
                  <span className="lr-cal-booked">■</span> 이달 상담 예약 <b>{count(totals.appointments)}</b>
                </span>
              </>
            ) : (
              loading && <Typography.Text type="secondary">불러오는 중…</Typography.Text>
            )}
          </Space>
        </div>
      )}
    />
  );
}

function DayPanel({ shopId, day, mine, canList, onOpen }: {
  shopId: number;
  day: string;
  mine: boolean;
  canList: boolean;
  /** Opens a lead's detail; without it names are plain text. */
  onOpen?: (id: number) => void;
}) {
  const q = useCall(leadCalendarApi.day, { params: { shopId, day } });
  const d = q.data;
  // The day's lists scroll inside the card (database-calendar.css).
  const scrollRegion = useScrollRegion(`${dayjs(day).format('M월 D일')} 목록`, '.ant-card-body');
  const name = (id: number, text: string) => (onOpen ? <Typography.Link onClick={() => onOpen(id)}>{text}</Typography.Link> : <Typography.Text strong>{text}</Typography.Text>);
  const who = (assignee: string | null) => (mine ? null : assignee ?? '미배분');

  return (
    <Card
      variant="borderless"
      title={dayjs(day).format('M월 D일 (dd)')}
      extra={canList && <Link to={`/database-status?from=${day}&to=${day}`}>DB 현황에서 보기</Link>}
      className="lr-cal-day"
      ref={scrollRegion}
      styles={{ body: { paddingTop: 8 } }}
    >
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} />}
      {!d && !q.isError && <Skeleton active paragraph={{ rows: 8 }} />}
      {d && (
        <>
          <Typography.Title level={5} style={{ marginTop: 0 }}>
            상담 예약 <Typography.Text type="secondary">{count(d.appointments.length)}</Typography.Text>
          </Typography.Title>
          {d.appointments.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="이날 잡힌 상담 예약이 없습니다." />
          ) : (
            <List<CalendarAppointment>
              size="small"
              dataSource={d.appointments}
              renderItem={(a) => (
                <List.Item key={a.id}>
                  <div className="lr-cal-item">
                    <Space size={6} wrap>
                      <Typography.Text strong className="lr-cal-time">{formatTime(a.reservedAt)}</Typography.Text>
                      {name(a.id, a.name)}
                      <StatusTag status={a.csStatus} />
                    </Space>
                    <Typography.Text type="secondary" className="lr-cal-sub">
                      {[a.phone, who(a.assigneeName)].filter(Boolean).join(' · ')}
                    </Typography.Text>
                    {a.memo && <Typography.Text className="lr-cal-memo" ellipsis={{ tooltip: a.memo }}>{a.memo}</Typography.Text>}
                  </div>
                </List.Item>
              )}
            />
          )}
          <Divider style={{ margin: '12px 0' }} />
          <Typography.Title level={5}>
            접수 DB <Typography.Text type="secondary">{count(d.receivedTotal)}</Typography.Text>
          </Typography.Title>
          {d.received.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={mine ? '이날 접수되어 배분받은 DB가 없습니다.' : '이날 접수된 DB가 없습니다.'} />
          ) : (
            <List<CalendarReceived>
              size="small"
              dataSource={d.received}
              renderItem={(r) => (
                <List.Item key={r.id}>
                  <div className="lr-cal-item">
                    <Space size={6} wrap>
                      <Typography.Text type="secondary" className="lr-cal-time">{formatTime(r.createdAt)}</Typography.Text>
                      {name(r.id, r.name)}
                      <StatusTag status={r.csStatus} />
                    </Space>
                    <Typography.Text type="secondary" className="lr-cal-sub">
                      {[r.phone, who(r.assigneeName), r.landingTitle ?? '직접 등록'].filter(Boolean).join(' · ')}
                    </Typography.Text>
                  </div>
                </List.Item>
              )}
            />
          )}
          {d.receivedTotal > d.received.length && (
            <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
              최근 {formatNumber(d.received.length)}건만 보입니다.{' '}
              {canList && <Link to={`/database-status?from=${day}&to=${day}`}>나머지 {count(d.receivedTotal - d.received.length)}은 DB 현황에서</Link>}
            </Typography.Paragraph>
          )}
        </>
      )}
    </Card>
  );
}
