// 정산서: one month of a contract, per Seoul day — valid leads, what is billed, what passed a
// cap, what was returned — and the month's amount (supply, VAT, sum), as the XLSX the agency
// sends the shop says it. The months to pick are those of the contract's period.
import { useState } from 'react';
import { Alert, App, Button, Descriptions, Empty, Select, Skeleton, Space, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { shopContractsApi, type ContractFigures, type SettlementDay } from '@contracts/shop-contracts.ts';
import { won0 } from '@contracts/money.ts';
import { download } from '@/lib/api.ts';
import { useCall } from '@/lib/use-call.ts';
import { formatNumber } from '@/lib/format.ts';
import { monthLabel, monthsBetween } from './months.ts';

export function SettlementPanel({ shopId, f }: { shopId: number; f: ContractFigures }) {
  const months = monthsBetween(f.contract.startsOn, f.lastDay);
  const thisMonth = f.today.slice(0, 7);
  const [month, setMonth] = useState(months.includes(thisMonth) ? thisMonth : (months.at(-1) ?? thisMonth));
  const input = { params: { shopId, id: f.contract.id }, query: { month } };
  const q = useCall(shopContractsApi.settlement, input, { keepPrevious: true });
  const [busy, setBusy] = useState(false);
  const { message } = App.useApp();
  const s = q.data;
  const unitPrice = s?.totals.unitPrice ?? f.contract.unitPrice;

  async function save() {
    setBusy(true);
    try {
      const name = await download(shopContractsApi.settlementXlsx, input);
      message.success(`${name} 파일을 받았습니다.`);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '정산서를 받지 못했습니다.');
    } finally {
      setBusy(false);
    }
  }

  const num = (v: number) => formatNumber(v);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Space wrap>
        <Select
          aria-label="정산 월"
          value={month}
          onChange={setMonth}
          style={{ width: 140 }}
          options={months.map((m) => ({ value: m, label: monthLabel(m) }))}
        />
        <Button icon={<DownloadOutlined />} loading={busy} onClick={save}>
          엑셀 다운로드
        </Button>
        <Typography.Text type="secondary">
          단가 {won0(unitPrice)} (VAT 별도) · 부가세는 공급가의 10%, 원 미만 절사
        </Typography.Text>
      </Space>
      {q.isError && <Alert type="error" showIcon title={(q.error as Error).message} />}
      {!s ? (
        !q.isError && <Skeleton active paragraph={{ rows: 6 }} />
      ) : s.days.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`${monthLabel(s.month)}에는 계약 기간에 든 날이 없습니다.`} />
      ) : (
        <>
          <Table<SettlementDay>
            rowKey="day"
            size="small"
            pagination={false}
            loading={q.isFetching}
            dataSource={s.days}
            scroll={{ y: 360 }}
            columns={[
              { title: '일자', dataIndex: 'day', key: 'day' },
              { title: '유효', dataIndex: 'valid', key: 'valid', align: 'right', render: num },
              { title: '청구', dataIndex: 'billable', key: 'billable', align: 'right', render: num },
              { title: '초과', dataIndex: 'over', key: 'over', align: 'right', render: num },
              { title: '반품', dataIndex: 'returned', key: 'returned', align: 'right', render: num },
              { title: '공급가', key: 'amount', align: 'right', render: (_: unknown, r) => won0(r.billable * unitPrice) },
            ]}
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row style={{ fontWeight: 600 }}>
                  <Table.Summary.Cell index={0}>합계</Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">{num(s.totals.valid)}</Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">{num(s.totals.billable)}</Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">{num(s.totals.over)}</Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">{num(s.totals.returned)}</Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">{won0(s.totals.amount)}</Table.Summary.Cell>
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
          <Descriptions size="small" bordered column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="공급가">{won0(s.totals.amount)}</Descriptions.Item>
            <Descriptions.Item label="부가세">{won0(s.totals.vat)}</Descriptions.Item>
            <Descriptions.Item label="합계">
              <Typography.Text strong>{won0(s.totals.total)}</Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {s.from} ~ {s.to} · 청구 {formatNumber(s.totals.billable)}건 × {won0(unitPrice)}
            {s.totals.returnsApprovedInMonth > 0 && ` · 이달 승인된 반품 ${formatNumber(s.totals.returnsApprovedInMonth)}건 (접수월과 관계없이)`}
          </Typography.Text>
        </>
      )}
    </Space>
  );
}
