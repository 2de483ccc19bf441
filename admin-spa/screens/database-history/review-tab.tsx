// The monthly review: for a month (default last month), what the privacy officer should look at —
// busy days of an account (phones revealed, details opened, exports), access at night in Seoul,
// big exports — each opening the record filtered to it; then the month is marked reviewed, once,
// with an optional note (recorded like any access).
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, App, Button, Card, Descriptions, Empty, Form, Input, Space, Table, Tag, Typography } from 'antd';
import { CheckCircleOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { MonthPicker } from '@/components/month-picker.tsx';
import { useQueryClient } from '@tanstack/react-query';
import {
  REVIEW_FLAG_LABELS, REVIEW_THRESHOLDS, accessRecordApi, accessReviewInput, previousMonth, type ReviewFlag, type ReviewFlagKind,
} from '@contracts/access-record.ts';
import { seoulDay } from '@contracts/kst.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { formatNumber } from '@/lib/format.ts';
import { zodRule } from '@/lib/zod-rule.ts';
import { formatDateTimeSeconds } from '@/lib/format.ts';

const FLAG_COLORS: Record<ReviewFlagKind, string> = { unmask: 'gold', view: 'blue', export: 'purple', 'big-export': 'magenta', night: 'geekblue' };
/** The record's actions a finding is about (night: everything that account did that day). */
const FLAG_ACTIONS: Record<ReviewFlagKind, string | null> = { unmask: 'unmask', view: 'view', export: 'export', 'big-export': 'export', night: null };

export function ReviewTab({ openRecord }: { openRecord: (filters: Record<string, string>) => void }) {
  const shop = useCurrentShop();
  const params = { shopId: shop.id };
  const { can } = useAuth();
  const writable = can('database-history', 'write');
  const [search, setSearch] = useSearchParams();
  const thisMonth = seoulDay(new Date()).slice(0, 7);
  const month = search.get('month') ?? previousMonth(seoulDay(new Date()));
  const report = useCall(accessRecordApi.review, { params, query: { month } }, { keepPrevious: true });
  const r = report.data;

  const columns: ColumnsType<ReviewFlag> = [
    { title: '날짜', dataIndex: 'day', key: 'day', render: (v: string, f) => <span style={{ whiteSpace: 'nowrap' }}>{f.at ? formatDateTimeSeconds(f.at) : v}</span> },
    { title: '확인할 일', dataIndex: 'kind', key: 'kind', render: (v: ReviewFlagKind) => <Tag color={FLAG_COLORS[v]}>{REVIEW_FLAG_LABELS[v]}</Tag> },
    {
      title: '계정', key: 'account',
      render: (_: unknown, f) => (
        <Space size={4}>
          {f.accountName ?? '-'}
          {f.accountLoginId && <Typography.Text type="secondary">({f.accountLoginId})</Typography.Text>}
        </Space>
      ),
    },
    { title: '건수', dataIndex: 'count', key: 'count', align: 'right', render: (v: number, f) => `${formatNumber(v)}${f.kind === 'big-export' ? '건 (행)' : '회'}` },
    {
      title: '', key: 'open',
      render: (_: unknown, f) => {
        const filters: Record<string, string> = { from: f.day, to: f.day };
        if (f.accountId !== null) filters.accountId = String(f.accountId);
        const action = FLAG_ACTIONS[f.kind];
        if (action) filters.action = action;
        return <Typography.Link onClick={() => openRecord(filters)}>기록 보기</Typography.Link>;
      },
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={12}>
        <MonthPicker label="점검할 달" month={month} last={thisMonth} onChange={(m) => setSearch({ tab: 'review', month: m })} />
        <Typography.Text type="secondary">
          기준: 하루에 전화번호 보기 {REVIEW_THRESHOLDS.unmaskPerDay}회, 상세 열람 {REVIEW_THRESHOLDS.viewPerDay}회, 내보내기 {REVIEW_THRESHOLDS.exportPerDay}회 초과 ·{' '}
          {formatNumber(REVIEW_THRESHOLDS.exportRows)}건 초과 내보내기 · 야간({REVIEW_THRESHOLDS.nightFromHour}시–{REVIEW_THRESHOLDS.nightToHour}시) 접근 (한국 시간)
        </Typography.Text>
      </Space>
      {report.isError && <Alert type="error" showIcon title={(report.error as Error).message} />}
      <Card variant="borderless" title={`${month.slice(0, 4)}년 ${Number(month.slice(5))}월 확인 대상`} extra={r && `${formatNumber(r.flags.length)}건`}>
        <Table<ReviewFlag>
          rowKey={(f) => `${f.kind}|${f.accountId}|${f.day}|${f.at ?? ''}`}
          size="middle"
          columns={columns}
          dataSource={r?.flags ?? []}
          loading={report.isFetching}
          pagination={(r?.flags.length ?? 0) > 20 ? { pageSize: 20, showSizeChanger: false } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="기준을 넘은 접근이 없습니다." /> }}
        />
      </Card>
      <Card variant="borderless" title="점검 완료">
        {!r ? null : r.review ? (
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'who', label: '점검자', children: <Space><CheckCircleOutlined style={{ color: '#52c41a' }} />{r.review.reviewerName ?? '-'} ({r.review.reviewerLoginId ?? '-'})</Space> },
              { key: 'at', label: '점검 일시', children: formatDateTimeSeconds(r.review.reviewedAt) },
              { key: 'note', label: '메모', children: r.review.note ?? <Typography.Text type="secondary">없음</Typography.Text> },
            ]}
          />
        ) : !r.over ? (
          <Alert type="info" showIcon title="달이 끝난 뒤에 점검을 마칠 수 있습니다." />
        ) : writable ? (
          <MarkReviewed shopId={shop.id} month={month} flags={r.flags.length} />
        ) : (
          <Alert type="warning" showIcon title="아직 점검하지 않은 달입니다." description="점검 완료 표시는 개인정보 접근 기록의 편집 권한이 있는 계정이 할 수 있습니다." />
        )}
      </Card>
    </Space>
  );
}

function MarkReviewed({ shopId, month, flags }: { shopId: number; month: string; flags: number }) {
  const [form] = Form.useForm<{ note?: string }>();
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark="optional"
      style={{ maxWidth: 560 }}
      onFinish={async (v) => {
        setBusy(true);
        try {
          await call(accessRecordApi.markReviewed, { params: { shopId }, body: { month, note: v.note } });
          message.success(`${month.slice(0, 4)}년 ${Number(month.slice(5))}월 점검을 마쳤습니다.`);
        } catch (err) {
          message.error(err instanceof ApiError || err instanceof Error ? err.message : '점검을 기록하지 못했습니다.');
        } finally {
          setBusy(false);
          await invalidate(queryClient, [accessRecordApi.review, accessRecordApi.list]);
        }
      }}
    >
      <Form.Item label="메모" name="note" rules={[zodRule(accessReviewInput, 'note')]} extra={`확인 대상 ${formatNumber(flags)}건을 살펴본 뒤 점검 완료로 표시하세요.`}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={500} placeholder="예: 야간 접근은 당직 근무로 확인" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} icon={<CheckCircleOutlined />}>
        점검 완료로 표시
      </Button>
    </Form>
  );
}
