// 상담 통계's 응답 SLA tab: the period's speed to lead — SLA met, the median and p90 working minutes
// to first contact and their distribution, per counselor, landing, medium and hour of arrival
// (each table as the server sorted it: most leads first; hours in order), and the re-routes and
// why. A counselor sees their own leads (the server narrows them); a shop without an SLA is told
// where it is set.
import { Card, Col, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { csStatsApi } from '@contracts/cs-stats.ts';
import type { SlaFigures, SlaKeyedGroup } from '@contracts/lead-sla.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatDate } from '@/lib/format.ts';
import { ServerError } from '@/layouts/results.tsx';
import {
  DistributionChart, RerouteReasons, SlaFigureCards, SlaGroupTable, SlaOff, calendarText, useDistributionOption,
} from '@/components/sla-figures.tsx';

type Hour = SlaFigures['byHour'][number];
const EMPTY = '이 기간에 응답 SLA로 잰 DB가 없습니다.';

export function SlaTab({ shopId, from, to }: { shopId: number; from: string; to: string }) {
  const { can } = useAuth();
  const q = useCall(csStatsApi.sla, { params: { shopId }, query: { from, to } }, { keepPrevious: true });
  const f = q.data;
  const option = useDistributionOption(f);

  if (q.isError) return <ServerError message={(q.error as Error).message} onRetry={() => q.refetch()} />;
  if (!f) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (!f.sla) return <SlaOff canSettings={can('data-allocation', 'read')} />;

  const own = f.scope === 'assigned';
  const keyed = (title: string) => ({ title, dataIndex: 'name', ellipsis: true, width: 120 }) as const;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Typography.Text type="secondary">
        첫 연락 기한 {f.sla.minutes}분 · {calendarText(f.sla)} · {formatDate(f.sla.enabledAt)}부터 접수된 DB · 시간은 근무 시간으로 잰 분 · 중복·삭제 DB 제외
        {own && <Tag color="blue" style={{ marginLeft: 8 }}>내 담당 DB만</Tag>}
      </Typography.Text>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Card variant="borderless" title="기한 준수" style={{ height: '100%' }}>
            <SlaFigureCards f={f} span={{ xs: 12, md: 12 }} />
            <Typography.Paragraph strong style={{ margin: '20px 0 8px' }}>기한 경과 처리 (재배분·알림)</Typography.Paragraph>
            <RerouteReasons f={f} />
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card variant="borderless" title="첫 연락까지 걸린 시간 분포 (근무 시간)" style={{ height: '100%' }}>
            <DistributionChart option={option} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24}>
          <SlaGroupTable<SlaKeyedGroup> title="상담원별" rows={f.byCounselor} first={keyed('상담원')} rowKey={(r) => String(r.key)} empty={EMPTY} />
        </Col>
        <Col xs={24}>
          <SlaGroupTable<SlaKeyedGroup> title="랜딩별" rows={f.byLanding} first={keyed('랜딩')} rowKey={(r) => String(r.key)} empty={EMPTY} />
        </Col>
        <Col xs={24}>
          <SlaGroupTable<SlaKeyedGroup> title="매체별" rows={f.byMedium} first={keyed('매체')} rowKey={(r) => String(r.key)} empty={EMPTY} />
        </Col>
        <Col xs={24}>
          <SlaGroupTable<Hour>
            title="접수 시간대별 (접수가 있는 시간대)"
            rows={f.byHour.filter((h) => h.leads > 0)}
            first={{ title: '시간대', dataIndex: 'hour', width: 120, render: (h: number) => `${String(h).padStart(2, '0')}:00–${String(h).padStart(2, '0')}:59` }}
            rowKey={(r) => String(r.hour)}
            empty={EMPTY}
          />
        </Col>
      </Row>
    </Space>
  );
}
