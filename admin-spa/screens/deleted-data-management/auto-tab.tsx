// 자동 파기: the shop's grace period (how long a deleted lead can still be restored) and what the
// automatic purge will destroy in the next 30 days, per day: deleted leads whose grace period
// ends, and leads — deleted or not — whose privacy policy's retention period ends.
import { lazy, Suspense, useMemo } from 'react';
import { App, Button, Card, Col, Empty, Form, InputNumber, Row, Skeleton, Space, Statistic, Table, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { GRACE_DAYS_MAX, GRACE_DAYS_MIN, UPCOMING_DAYS, leadDeletionApi, purgeSettingsInput, type UpcomingDestructions } from '@contracts/lead-deletion.ts';
import { call, ApiError } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { fieldErrors, zodRule } from '@/lib/zod-rule.ts';
import { dailyCountsOption } from '@/components/daily-leads-option.ts';

const Chart = lazy(() => import('@/components/chart.tsx'));
const ORANGE = '#fa8c16';
const PURPLE = '#722ed1';

function upcomingOption(days: UpcomingDestructions['days']) {
  return dailyCountsOption(days, [
    { type: 'bar', name: '유예 기간 만료', stack: 'due', data: days.map((d) => d.grace), itemStyle: { color: ORANGE } },
    { type: 'bar', name: '보유 기간 만료', stack: 'due', data: days.map((d) => d.retention), itemStyle: { color: PURPLE, borderRadius: [3, 3, 0, 0] } },
  ]);
}

export function AutoTab() {
  const shop = useCurrentShop();
  const params = { shopId: shop.id };
  const settings = useCall(leadDeletionApi.settings, { params });
  const upcoming = useCall(leadDeletionApi.upcoming, { params });
  const option = useMemo(() => (upcoming.data ? upcomingOption(upcoming.data.days) : null), [upcoming.data]);
  const busyDays = (upcoming.data?.days ?? []).filter((d) => d.grace || d.retention);

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={8}>
        <Card variant="borderless" title="유예 기간">
          {settings.data ? <GraceForm shopId={shop.id} graceDays={settings.data.graceDays} updatedAt={settings.data.updatedAt} /> : <Skeleton active />}
        </Card>
      </Col>
      <Col xs={24} xl={16}>
        <Card variant="borderless" title={`앞으로 ${UPCOMING_DAYS}일 동안 자동 파기될 DB`}>
          {upcoming.data ? (
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <Space size={48}>
                <Statistic title="유예 기간 만료 (삭제된 DB)" value={upcoming.data.totals.grace} suffix="건" />
                <Statistic title="보유 기간 만료 (처리방침)" value={upcoming.data.totals.retention} suffix="건" />
              </Space>
              {busyDays.length ? (
                <>
                  <Suspense fallback={<Skeleton active />}>
                    {option && <Chart option={option} label={`앞으로 ${UPCOMING_DAYS}일 동안 날짜별 자동 파기 예정 DB 막대 그래프 (유예 기간 만료, 보유 기간 만료)`} />}
                  </Suspense>
                  <Table
                    size="small"
                    rowKey="day"
                    pagination={false}
                    dataSource={busyDays}
                    columns={[
                      { title: '날짜', dataIndex: 'day', render: (v: string, _r, i) => (i === 0 && v === upcoming.data!.days[0]!.day ? `${v} (오늘)` : v) },
                      { title: '유예 기간 만료', dataIndex: 'grace', align: 'right', render: (v: number) => `${formatNumber(v)}건` },
                      { title: '보유 기간 만료', dataIndex: 'retention', align: 'right', render: (v: number) => `${formatNumber(v)}건` },
                    ]}
                  />
                </>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`앞으로 ${UPCOMING_DAYS}일 동안 자동으로 파기될 DB가 없습니다.`} />
              )}
            </Space>
          ) : (
            <Skeleton active />
          )}
        </Card>
      </Col>
    </Row>
  );
}

function GraceForm({ shopId, graceDays, updatedAt }: { shopId: number; graceDays: number; updatedAt: string | null }) {
  const { can } = useAuth();
  const writable = can('deleted-data-management', 'write');
  const [form] = Form.useForm<{ graceDays: number }>();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={{ graceDays }}
      disabled={!writable}
      onFinish={async (v) => {
        try {
          await call(leadDeletionApi.updateSettings, { params: { shopId }, body: v });
          await invalidate(queryClient, [leadDeletionApi.settings, leadDeletionApi.upcoming, leadDeletionApi.deleted]);
          message.success(`유예 기간을 ${v.graceDays}일로 저장했습니다.`);
        } catch (err) {
          if (err instanceof ApiError && err.fields) form.setFields(fieldErrors(err.fields) as never);
          else message.error((err as Error).message);
        }
      }}
    >
      <Typography.Paragraph type="secondary">
        삭제한 DB는 이 기간 동안 삭제 DB 관리에서 복구할 수 있고, 기간이 지나면 자동으로 파기됩니다. 개인정보 처리방침의 보유 기간이 먼저 끝나는 DB는 그때 파기됩니다.
      </Typography.Paragraph>
      <Form.Item label="삭제 후 파기까지" name="graceDays" required rules={[zodRule(purgeSettingsInput, 'graceDays')]}>
        <InputNumber min={GRACE_DAYS_MIN} max={GRACE_DAYS_MAX} precision={0} suffix="일" style={{ width: 160 }} aria-label="유예 기간 (일)" />
      </Form.Item>
      {writable && (
        <Button type="primary" htmlType="submit">
          저장
        </Button>
      )}
      {updatedAt && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0, fontSize: 12 }}>
          마지막 변경 {formatDateTime(updatedAt)}
        </Typography.Paragraph>
      )}
    </Form>
  );
}
