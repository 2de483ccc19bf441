// The columns every list of leads shows alike (DB 현황, DB 삭제, DB 전송, a contract's leads).
// What differs between the lists — a link on the name, an editable cell, a tag's note — is an
// option or a column property the screen passes over the default.
import type { ReactNode } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table/interface.js';
import type { CsStatus, LeadListItem, Validity } from '@contracts/leads.ts';
import { formatDateTime } from '@/lib/format.ts';
import { StatusTag } from '@/components/status-tag.tsx';

type More<T> = Partial<ColumnType<T>>;

/** 접수: when the lead came in. */
export function receivedColumn<T extends { createdAt: string }>(more: More<T> = {}): ColumnType<T> {
  return { title: '접수', dataIndex: 'createdAt', key: 'createdAt', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(v)}</span>, ...more };
}

/** 이름: a link opening the lead's detail when `onOpen` is given and the row may be opened. */
export function nameColumn<T extends { id: number; name: string }>(onOpen?: (id: number) => void, openable: (row: T) => boolean = () => true): ColumnType<T> {
  return {
    title: '이름', dataIndex: 'name', key: 'name',
    ...(onOpen && {
      render: (v: string, row: T) =>
        openable(row) ? <Typography.Link onClick={() => onOpen(row.id)} style={{ whiteSpace: 'nowrap' }}>{v}</Typography.Link> : v,
    }),
  };
}

/** 연락처, masked as the list gives it. */
export function phoneColumn<T extends { phone: string }>(more: More<T> = {}): ColumnType<T> {
  return { title: '연락처', dataIndex: 'phone', key: 'phone', ...more };
}

/** 상태 as a tag. */
export function statusColumn<T extends { csStatus: CsStatus }>(more: More<T> = {}): ColumnType<T> {
  return { title: '상태', dataIndex: 'csStatus', key: 'csStatus', render: (v: CsStatus) => <StatusTag status={v} />, ...more };
}

/** 담당: the counselor, or 미배분. */
export function assigneeColumn<T extends { assigneeName: string | null }>(): ColumnType<T> {
  return {
    title: '담당', dataIndex: 'assigneeName', key: 'assigneeName',
    render: (v: string | null) => v ?? <Typography.Text type="secondary">미배분</Typography.Text>,
  };
}

type LandingRow = { landingTitle: string | null; mediaTypeName: string | null; source?: string; utmSource?: string | null; variant?: string | null };

/** The landing experiment's variant a lead came from (실험안 B), beside its landing. */
export const variantTag = (variant: string | null | undefined) =>
  variant ? <Tooltip title="A/B 실험 중 이 실험안을 보고 신청한 DB입니다"><Tag bordered={false} color="blue" style={{ marginInlineStart: 4 }}>실험안 {variant}</Tag></Tooltip> : null;

/** 랜딩 · 매체: the landing (or 직접 등록 for a lead entered by hand) with its variant, its medium and utm_source beneath. */
export function landingColumn<T extends LandingRow>(): ColumnType<T> {
  return {
    title: '랜딩 · 매체', key: 'landing',
    render: (_: unknown, row: T) => (
      <Space orientation="vertical" size={0}>
        <span>
          <Typography.Text ellipsis style={{ maxWidth: 200 }}>{row.landingTitle ?? (row.source === 'landing' ? '-' : '직접 등록')}</Typography.Text>
          {variantTag(row.variant)}
        </span>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>{[row.mediaTypeName, row.utmSource].filter(Boolean).join(' · ') || '-'}</Typography.Text>
      </Space>
    ),
  };
}

/** What a list that only reads its leads shows before its tags (DB 삭제, DB 전송). */
export function readOnlyLeadColumns<T extends LeadListItem>(): ColumnType<T>[] {
  return [receivedColumn(), nameColumn(), phoneColumn(), statusColumn(), assigneeColumn(), landingColumn()];
}

type TaggedRow = { duplicateOf: number | null; validity: Validity; invalidReason?: string | null };

/** 무효 or 반품, its reason on hover. */
const validityTag = (row: TaggedRow) =>
  row.validity !== 'valid' && <Tooltip title={row.invalidReason}><Tag>{row.validity === 'invalid' ? '무효' : '반품'}</Tag></Tooltip>;

/** 구분: 중복 (with `duplicateTip` on hover), the validity, and what else the list marks (`more`). */
export function tagsColumn<T extends TaggedRow>({ duplicateTip, validity = validityTag, more }: {
  duplicateTip?: string;
  validity?: (row: T) => ReactNode;
  more?: (row: T) => ReactNode;
} = {}): ColumnType<T> {
  const duplicate = <Tag color="magenta">중복</Tag>;
  return {
    title: '구분', key: 'tags',
    render: (_: unknown, row: T) => (
      <Space size={4}>
        {row.duplicateOf && (duplicateTip ? <Tooltip title={duplicateTip}>{duplicate}</Tooltip> : duplicate)}
        {validity(row)}
        {more?.(row)}
      </Space>
    ),
  };
}
