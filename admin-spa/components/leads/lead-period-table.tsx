// The shop's leads over a period of 접수 days, with the lead filters and, for those who may
// change them, row selection: DB 현황, DB 삭제 and DB 전송 list the same leads the same way.
import type { ReactNode } from 'react';
import type { ColumnsType } from 'antd/es/table/interface.js';
import type { TableProps } from 'antd';
import { leadsApi, type LeadListItem } from '@contracts/leads.ts';
import { ResourceTable, type FilterDef } from '@/components/resource-table.tsx';
import { PeriodPicker, type Period } from '@/components/period-picker.tsx';

export function LeadPeriodTable({ shopId, period, columns, filters, selection, empty = '이 기간에 접수된 DB가 없습니다.', rowClassName, actions, refetchInterval }: {
  shopId: number;
  period: Period;
  columns: ColumnsType<LeadListItem>;
  filters: FilterDef[];
  /** The chosen rows (left out: the rows cannot be chosen). */
  selection?: { selected: number[]; onChange: (ids: number[]) => void };
  empty?: ReactNode;
  rowClassName?: TableProps<LeadListItem>['rowClassName'];
  /** Buttons after the period picker. */
  actions?: ReactNode;
  /** Reads the page again every this many ms (the SLA countdown). */
  refetchInterval?: number | false;
}) {
  const { from, to, today, setPeriod } = period;
  return (
    <ResourceTable
      endpoint={leadsApi.list}
      params={{ shopId }}
      extraQuery={{ from, to }}
      columns={columns}
      filters={filters}
      rowClassName={rowClassName}
      refetchInterval={refetchInterval}
      rowSelection={selection && { selectedRowKeys: selection.selected, onChange: (keys) => selection.onChange(keys as number[]), preserveSelectedRowKeys: false }}
      empty={empty}
      toolbar={
        <>
          <PeriodPicker label="접수 기간" from={from} to={to} today={today} onChange={setPeriod} />
          {actions}
        </>
      }
    />
  );
}
