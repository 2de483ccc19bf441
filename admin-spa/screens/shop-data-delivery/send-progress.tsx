// A send as it goes: a bar that fills as the worker tries each lead once (polled every second),
// then what came of it — delivered, failed, waiting to be tried again — polled more slowly
// while retries are due, with the way into DB 전송 이력 filtered to this send's jobs.
import { Link } from 'react-router-dom';
import { Alert, Button, Card, Progress, Space, Typography } from 'antd';
import { CheckCircleFilled, ClockCircleFilled, CloseOutlined, ExclamationCircleFilled, LoadingOutlined } from '@ant-design/icons';
import type { DeliveryKind } from '@contracts/delivery.ts';
import { deliveryApi, formatJobIds, type DeliverySendResult } from '@contracts/delivery-history.ts';
import { useCall } from '@/lib/use-call.ts';
import { useAuth } from '@/lib/auth.tsx';
import { formatNumber } from '@/lib/format.ts';
import { KindTag } from '@/components/delivery/delivery-tags.tsx';

export type SentBatch = DeliverySendResult & { channelName: string; channelKind: DeliveryKind };

export function SendProgress({ shopId, batch, onClose }: { shopId: number; batch: SentBatch; onClose: () => void }) {
  const { can } = useAuth();
  const jobIds = formatJobIds(batch.jobIds);
  const q = useCall(deliveryApi.progress, { params: { shopId }, query: { jobIds } }, {
    // Every second while leads wait for their first try; every 5 s while retries are due; then not at all.
    refetchInterval: (query) => {
      const d = query.state.data;
      if (!d || d.untried > 0) return 1000;
      return d.pending + d.sending > 0 ? 5000 : false;
    },
  });
  const d = q.data;
  const total = d?.total ?? batch.queued;
  const tried = d ? d.total - d.untried : 0;
  const running = !d || d.untried > 0;
  const left = batch.skipped.deleted + batch.skipped.duplicates;
  const skippedText = [batch.skipped.deleted && `삭제된 DB ${formatNumber(batch.skipped.deleted)}건`, batch.skipped.duplicates && `중복 DB ${formatNumber(batch.skipped.duplicates)}건`]
    .filter(Boolean)
    .join(', ');

  return (
    <Card
      variant="borderless"
      title={
        <Space size={8}>
          {running ? <LoadingOutlined /> : d?.failed ? <ExclamationCircleFilled style={{ color: '#ff4d4f' }} /> : d?.retrying ? <ClockCircleFilled style={{ color: '#faad14' }} /> : <CheckCircleFilled style={{ color: '#52c41a' }} />}
          <span>{running ? '보내는 중' : d?.retrying ? '재시도 대기 중' : '전송 결과'}</span>
          <KindTag kind={batch.channelKind} />
          <Typography.Text>{batch.channelName}</Typography.Text>
          <Typography.Text type="secondary">{formatNumber(batch.queued)}건</Typography.Text>
        </Space>
      }
      extra={<Button type="text" icon={<CloseOutlined />} aria-label="닫기" onClick={onClose} />}
    >
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} style={{ marginBottom: 12 }} />}
      <Progress
        percent={total ? Math.round((tried / total) * 100) : 100}
        success={{ percent: total && d ? Math.round((d.succeeded / total) * 100) : 0 }}
        // Red once any failed for good; plain while retries are due; green only when all arrived (or were left out).
        status={running ? 'active' : d?.failed ? 'exception' : d?.retrying ? 'normal' : 'success'}
        format={() => `${formatNumber(tried)} / ${formatNumber(total)}`}
        aria-label="전송 진행률"
      />
      <Space size={16} wrap style={{ marginTop: 8 }}>
        <Typography.Text>성공 <Typography.Text strong type="success">{formatNumber(d?.succeeded ?? 0)}</Typography.Text></Typography.Text>
        <Typography.Text>실패 <Typography.Text strong type={d?.failed ? 'danger' : undefined}>{formatNumber(d?.failed ?? 0)}</Typography.Text></Typography.Text>
        {!!d?.retrying && <Typography.Text>재시도 대기 <Typography.Text strong type="warning">{formatNumber(d.retrying)}</Typography.Text></Typography.Text>}
        {!!d?.cancelled && <Typography.Text>취소 <Typography.Text strong>{formatNumber(d.cancelled)}</Typography.Text></Typography.Text>}
        {running && <Typography.Text type="secondary">대기 {formatNumber(d?.untried ?? batch.queued)}</Typography.Text>}
        {can('shop-data-deliver-history') && <Link to={`/shop-data-deliver-history?jobIds=${jobIds}`}>전송 이력에서 보기</Link>}
      </Space>
      {!!d?.retrying && !running && (
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          실패한 {formatNumber(d.retrying)}건은 잠시 뒤 자동으로 다시 보냅니다. 끝내 실패한 전송은 DB 전송 이력의 &lsquo;대기·실패 중&rsquo;에서 다시 보낼 수 있습니다.
        </Typography.Paragraph>
      )}
      {left > 0 && <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>{skippedText}은 보내지 않았습니다.</Typography.Paragraph>}
    </Card>
  );
}
