// 업체 대시보드's 응답 SLA card: over the last SHOP_DASHBOARD_DAYS days, SLA met, the median and
// p90 working minutes to first contact, the leads re-routed, and the distribution of the time to
// first contact; 상담 통계's 응답 SLA tab has the rest. Fetched apart from the dashboard's figures,
// so they never wait for it. A shop without an SLA is told where it is set.
import { Link } from 'react-router-dom';
import { Card, Col, Row, Skeleton, Typography } from 'antd';
import { SHOP_DASHBOARD_DAYS, shopDashboardApi } from '@contracts/shop-dashboard.ts';
import { useCall } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { useAuth } from '@/lib/auth.tsx';
import { DistributionChart, SlaFigureCards, SlaOff, calendarText, useDistributionOption } from '@/components/sla-figures.tsx';

export function SlaCard({ shopId }: { shopId: number }) {
  const { can } = useAuth();
  const input = { params: { shopId } };
  const q = useCall(shopDashboardApi.sla, input);
  useBackgroundRefresh(shopDashboardApi.sla, input);
  const f = q.data;
  const option = useDistributionOption(f);
  const title = `응답 SLA (최근 ${SHOP_DASHBOARD_DAYS}일)`;
  const extra = can('cs-stats', 'read') && f?.sla ? <Link to="/cs-stats?tab=sla">상담 통계에서 자세히</Link> : undefined;

  if (q.isError) return <Card variant="borderless" title={title}><Typography.Text type="danger">응답 SLA 지표를 불러오지 못했습니다. {(q.error as Error).message}</Typography.Text></Card>;
  return (
    <Card variant="borderless" title={title} extra={extra}>
      {!f ? (
        <Skeleton active />
      ) : !f.sla ? (
        <SlaOff canSettings={can('data-allocation', 'read')} />
      ) : (
        <Row gutter={[24, 16]} align="middle">
          <Col xs={24} xl={10}>
            <SlaFigureCards f={f} span={{ xs: 12, md: 12 }} />
            <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '12px 0 0' }}>
              기한 {f.sla.minutes}분 · {calendarText(f.sla)} · 근무 시간으로 잰 분 · 중복·삭제 DB 제외
            </Typography.Paragraph>
          </Col>
          <Col xs={24} xl={14}>
            <DistributionChart option={option} height={240} />
          </Col>
        </Row>
      )}
    </Card>
  );
}
