// 파일 가져오기: upload a CSV or XLSX file (the server reads it whole once and refuses what it
// must not keep), connect its columns to the lead's fields (suggested from the headers), choose
// the basis of the data, start, follow the progress, and take the report of the rows left out.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Popconfirm, Progress, Result, Row, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { DownloadOutlined } from '@ant-design/icons';
import {
  ENCODING_LABELS, IMPORT_ACCEPT, IMPORT_CANCELLED, IMPORT_FIELDS, IMPORT_FIELD_LABELS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, IMPORT_WAIT_MINUTES,
  IMPORT_WAIT_NOTICE, dataInsertionApi, importMapping, importStartInput, type ConsentBasis, type ImportDetail, type ImportField, type ImportItem,
} from '@contracts/data-insertion.ts';
import { leadsApi } from '@contracts/leads.ts';
import { shopDashboardApi } from '@contracts/shop-dashboard.ts';
import { ApiError, call, download } from '@/lib/api.ts';
import { apiKey, invalidate, useCall } from '@/lib/use-call.ts';
import { formatDateTime, formatNumber } from '@/lib/format.ts';
import { fieldErrors } from '@/lib/zod-rule.ts';
import { FileDrop } from '@/components/file-drop.tsx';
import { ConsentFields } from './consent-fields.tsx';

/** What an import changes on other screens. */
const IMPORT_VIEWS = [dataInsertionApi.list, leadsApi.list, shopDashboardApi.get];

const fieldOptions = IMPORT_FIELDS.map((f) => ({ value: f, label: IMPORT_FIELD_LABELS[f] }));
const FIELD_COLORS: Partial<Record<ImportField, string>> = { name: 'blue', phone: 'blue', memo: 'cyan', medium: 'purple', landing: 'purple', receivedAt: 'geekblue' };

interface Props {
  shopId: number;
  importId: number | null;
  onOpen: (id: number | null) => void;
}

export function ImportPanel({ shopId, importId, onOpen }: Props) {
  const detail = useCall(dataInsertionApi.get, { params: { shopId, id: importId ?? 0 } }, {
    enabled: !!importId,
    refetchInterval: (q) => (q.state.data?.status === 'importing' ? 1000 : false),
  });
  const queryClient = useQueryClient();
  const status = detail.data?.status;
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (status === 'done' || status === 'failed') void invalidate(queryClient, IMPORT_VIEWS);
    // A step shorter than the last (the mapping) would leave the page scrolled past it.
    top.current?.scrollIntoView({ block: 'nearest' });
  }, [status, queryClient]);

  return <div ref={top}>{step()}</div>;

  function step() {
    if (!importId) return <UploadStep shopId={shopId} onUploaded={onOpen} />;
    if (detail.isError) {
      return (
        <Alert type="error" showIcon title={(detail.error as Error).message} action={<Button onClick={() => onOpen(null)}>새 파일 올리기</Button>} />
      );
    }
    const d = detail.data;
    if (!d) return <Card variant="borderless" loading />;
    if (d.status === 'importing') return <ProgressStep detail={d} />;
    if (d.status === 'done') return <ResultStep shopId={shopId} detail={d} onOpen={onOpen} />;
    if (d.status === 'cancelled') return <CancelledStep detail={d} onOpen={onOpen} />;
    return <MappingStep shopId={shopId} detail={d} onOpen={onOpen} />;
  }
}

function UploadStep({ shopId, onUploaded }: { shopId: number; onUploaded: (id: number) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const queryClient = useQueryClient();

  async function upload(file: File) {
    setError(null);
    if (file.size > IMPORT_MAX_BYTES) return setError(`파일은 ${IMPORT_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다. 파일을 나눠서 올려 주세요.`);
    setBusy(true);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const d = await call(dataInsertionApi.upload, { params: { shopId }, body });
      queryClient.setQueryData(apiKey(dataInsertionApi.get, { params: { shopId, id: d.id } }), d);
      await invalidate(queryClient, [dataInsertionApi.list]);
      onUploaded(d.id);
    } catch (err) {
      setError(err instanceof Error ? err.message : '파일을 올리지 못했습니다.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card variant="borderless" title="파일 올리기">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <FileDrop
          accept={IMPORT_ACCEPT}
          disabled={busy}
          onFile={(file) => void upload(file)}
          text={busy ? '파일을 읽는 중입니다…' : 'CSV 또는 엑셀(.xlsx) 파일을 끌어 놓거나 눌러서 고르세요'}
          hint={`첫 행은 열 이름입니다. ${IMPORT_MAX_BYTES / 1024 / 1024}MB, ${formatNumber(IMPORT_MAX_ROWS)}행까지. CSV는 UTF-8과 EUC-KR(엑셀 기본) 모두 읽습니다.`}
        />
        {error && <Alert type="error" showIcon title="가져올 수 없는 파일입니다" description={error} />}
        <Typography.Text type="secondary">
          주민등록번호·카드번호·계좌번호가 든 파일은 올릴 수 없습니다. 해당 열을 지우고 올려 주세요. {IMPORT_WAIT_NOTICE}
        </Typography.Text>
      </Space>
    </Card>
  );
}

interface ConsentValues {
  consentBasis?: ConsentBasis;
  consentNote?: string;
}

function MappingStep({ shopId, detail: d, onOpen }: { shopId: number; detail: ImportDetail; onOpen: (id: number | null) => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ConsentValues>();
  const [mapping, setMapping] = useState<ImportField[]>(() => d.mapping ?? d.suggested);
  const [starting, setStarting] = useState(false);
  const [serverProblem, setServerProblem] = useState<string | null>(null);
  const checked = importMapping.safeParse(mapping);
  const problem = serverProblem ?? (checked.success ? null : checked.error.issues[0]!.message);
  const params = { shopId, id: d.id };

  const setField = (index: number, field: ImportField) => {
    setServerProblem(null);
    setMapping((m) => m.map((f, i) => (i === index ? field : f)));
  };

  async function start(v: ConsentValues) {
    if (!checked.success) return;
    setStarting(true);
    try {
      const started = await call(dataInsertionApi.start, {
        params, body: { mapping, consentBasis: v.consentBasis as ConsentBasis, consentNote: v.consentNote ?? '' },
      });
      queryClient.setQueryData(apiKey(dataInsertionApi.get, { params }), started);
      await invalidate(queryClient, [dataInsertionApi.list]);
    } catch (err) {
      if (err instanceof ApiError && err.fields) {
        form.setFields(fieldErrors(err.fields).filter((f) => f.name[0] !== 'mapping') as never);
        if (err.fields.mapping) setServerProblem(err.fields.mapping);
      }
      message.error(err instanceof Error ? err.message : '가져오기를 시작하지 못했습니다.');
    } finally {
      setStarting(false);
    }
  }

  async function cancel() {
    try {
      await cancelImport(shopId, d.id, queryClient);
      message.success(IMPORT_CANCELLED);
      onOpen(null);
    } catch (err) {
      message.error(err instanceof Error ? err.message : '취소하지 못했습니다.');
    }
  }

  const columns = useMemo<ColumnsType<{ index: number; header: string; samples: string }>>(
    () => [
      { title: '파일의 열', dataIndex: 'header', key: 'header', width: 200, render: (v: string) => <Typography.Text strong>{v}</Typography.Text> },
      { title: '예시 값', dataIndex: 'samples', key: 'samples', ellipsis: true, render: (v: string) => v || <Typography.Text type="secondary">(비어 있음)</Typography.Text> },
      {
        title: '가져올 항목', key: 'field', width: 260,
        render: (_: unknown, row) => (
          <Select
            aria-label={`${row.header} 열의 항목`}
            value={mapping[row.index]}
            options={fieldOptions}
            onChange={(f: ImportField) => setField(row.index, f)}
            style={{ width: '100%' }}
          />
        ),
      },
    ],
    [mapping],
  );
  const rows = d.headers.map((header, index) => ({
    index, header,
    samples: d.preview.map((r) => r[index] ?? '').filter(Boolean).slice(0, 3).join(' · '),
  }));
  const previewColumns: ColumnsType<{ key: number; cells: string[] }> = d.headers.map((h, i) => ({
    key: String(i),
    title: (
      <Space orientation="vertical" size={2}>
        <span>{h}</span>
        <Tag color={FIELD_COLORS[mapping[i]!] ?? (mapping[i] === 'skip' ? 'default' : 'green')}>{IMPORT_FIELD_LABELS[mapping[i]!].replace(/ \(.*\)$/, '')}</Tag>
      </Space>
    ),
    render: (_: unknown, r) => r.cells[i] ?? '',
    ellipsis: true,
    width: 150,
  }));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {d.status === 'failed' && <Alert type="error" showIcon title="가져오기가 실패했습니다" description={d.error ?? undefined} />}
      <Alert
        type="info"
        showIcon
        title={`${formatDateTime(cancelsAt(d))}까지 가져오지 않으면 이 가져오기는 자동으로 취소되고, 올린 파일(이름·연락처)은 삭제됩니다.`}
      />
      <Card
        variant="borderless"
        title={`${d.fileName} — ${formatNumber(d.totalRows)}행`}
        extra={
          <Space>
            {d.format === 'csv' && d.encoding && <Tag>{ENCODING_LABELS[d.encoding] ?? d.encoding}</Tag>}
            <CancelImportButton onConfirm={cancel}>가져오기 취소</CancelImportButton>
          </Space>
        }
      >
        <Typography.Paragraph type="secondary">
          열 이름으로 항목을 짐작해 두었습니다. 이름과 연락처는 꼭 연결하세요. 연결하지 않은 열은 &lsquo;추가 항목&rsquo;으로 열 이름과 함께 저장되고,
          &lsquo;가져오지 않음&rsquo;으로 두면 버립니다. 매체·랜딩 열의 값은 등록된 이름이나 코드와 같아야 합니다.
        </Typography.Paragraph>
        <Table rowKey="index" size="small" pagination={false} columns={columns} dataSource={rows} />
        {problem && <Alert type="warning" showIcon title={problem} style={{ marginTop: 12 }} />}
      </Card>
      <Card variant="borderless" title={`미리보기 (처음 ${d.preview.length}행)`}>
        <Table
          size="small"
          pagination={false}
          columns={previewColumns}
          dataSource={d.preview.map((cells, key) => ({ key, cells }))}
          scroll={{ x: Math.max(600, d.headers.length * 150) }}
        />
      </Card>
      <Card variant="borderless" title="개인정보 수집 근거">
        <Form<ConsentValues> form={form} name="import-consent" layout="vertical" requiredMark="optional" onFinish={start} initialValues={{ consentNote: d.consentNote ?? '' }}>
          <Row gutter={16}>
            <ConsentFields schema={importStartInput} label="이 파일의 고객에게서 받은 근거" placeholder="고르세요" noteHint="동의서 보관 위치, 행사명 등" />
          </Row>
          <Space>
            <Button type="primary" htmlType="submit" loading={starting} disabled={!checked.success}>
              {formatNumber(d.totalRows)}행 가져오기
            </Button>
            <Typography.Text type="secondary">모든 행을 검사한 뒤 올바른 행만 한 번에 등록합니다. 중간에 실패하면 아무것도 등록되지 않습니다.</Typography.Text>
          </Space>
        </Form>
      </Card>
    </Space>
  );
}

/** When the scheduled job cancels an import left waiting: an hour after its upload, or after its failure. */
const cancelsAt = (d: ImportItem) => new Date(Date.parse(d.status === 'failed' && d.finishedAt ? d.finishedAt : d.createdAt) + IMPORT_WAIT_MINUTES * 60_000).toISOString();

/** Cancels a waiting import (its file is deleted at once) and refreshes what shows it. */
export async function cancelImport(shopId: number, id: number, queryClient: ReturnType<typeof useQueryClient>): Promise<void> {
  await call(dataInsertionApi.cancel, { params: { shopId, id } });
  await invalidate(queryClient, [dataInsertionApi.list, dataInsertionApi.get]);
}

/** The cancel's button, asking first: what goes, and that it is recorded. */
export function CancelImportButton({ onConfirm, size, children }: { onConfirm: () => Promise<void>; size?: 'small'; children: React.ReactNode }) {
  return (
    <Popconfirm
      title="이 가져오기를 취소할까요?"
      description="올린 파일은 바로 삭제되고, 취소한 사람은 개인정보 접근 기록에 남습니다."
      okText="가져오기 취소"
      okButtonProps={{ danger: true }}
      cancelText="닫기"
      onConfirm={onConfirm}
    >
      <Button size={size}>{children}</Button>
    </Popconfirm>
  );
}

function CancelledStep({ detail: d, onOpen }: { detail: ImportDetail; onOpen: (id: number | null) => void }) {
  return (
    <Card variant="borderless">
      <Result
        status="info"
        title="취소된 가져오기입니다"
        subTitle={`${d.fileName} · ${formatDateTime(d.finishedAt)} · ${d.error ?? IMPORT_CANCELLED}`}
        extra={
          <Button type="primary" onClick={() => onOpen(null)}>
            다른 파일 가져오기
          </Button>
        }
      />
    </Card>
  );
}

function ProgressStep({ detail: d }: { detail: ImportDetail }) {
  const p = d.progress;
  const share = p.total ? p.done / p.total : 0;
  const percent = Math.min(99, Math.floor(p.phase === 'writing' ? 50 + share * 50 : share * 50));
  return (
    <Card variant="borderless" title={`${d.fileName} 가져오는 중`}>
      <Space orientation="vertical" size={8} style={{ width: '100%' }}>
        <Progress percent={percent} status="active" aria-label="가져오기 진행률" />
        <Typography.Text>
          {p.phase === 'writing' ? `등록 중 ${formatNumber(p.done)} / ${formatNumber(p.total)}건` : `행 검사 중 ${formatNumber(p.done)} / ${formatNumber(p.total)}행`}
        </Typography.Text>
        <Typography.Text type="secondary">이 화면을 떠나도 가져오기는 계속됩니다.</Typography.Text>
      </Space>
    </Card>
  );
}

export async function downloadErrors(shopId: number, id: number, notify: (err: unknown) => void) {
  try {
    await download(dataInsertionApi.errors, { params: { shopId, id } });
  } catch (err) {
    notify(err);
  }
}

function ResultStep({ shopId, detail: d, onOpen }: { shopId: number; detail: ImportDetail; onOpen: (id: number | null) => void }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Card variant="borderless">
      <Result
        status={d.failed ? 'warning' : 'success'}
        title={`${formatNumber(d.imported)}건을 등록했습니다`}
        subTitle={
          <Space orientation="vertical" size={2}>
            <span>
              {d.fileName} · 전체 {formatNumber(d.totalRows)}행 · 중복으로 표시 {formatNumber(d.duplicates)}건 · 가져오지 못한 행 {formatNumber(d.failed)}행
            </span>
            {d.failed > 0 && <span>가져오지 못한 행은 오류 보고서에서 행 번호와 사유를 확인해 고친 뒤, 그 행만 다시 올리세요.</span>}
          </Space>
        }
        extra={[
          d.hasErrorReport && (
            <Button
              key="errors"
              type="primary"
              icon={<DownloadOutlined />}
              loading={busy}
              onClick={async () => {
                setBusy(true);
                await downloadErrors(shopId, d.id, (err) => message.error(err instanceof Error ? err.message : '내려받지 못했습니다.'));
                setBusy(false);
              }}
            >
              오류 보고서 내려받기
            </Button>
          ),
          <Button key="again" onClick={() => onOpen(null)}>
            다른 파일 가져오기
          </Button>,
          <Link key="list" to="/database-status">
            <Button type="link">DB 현황 보기</Button>
          </Link>,
        ].filter(Boolean)}
      />
    </Card>
  );
}
