// CSV 가져오기: choose the medium (unless the file has a 매체 column) and optionally a landing,
// upload a platform's daily report, see what it would write — each day's figures, what they
// replace, every refused row with its number and reason — and confirm. Nothing is written
// before the confirmation; with refused rows, only when the person chooses to leave them out.
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Checkbox, Col, Form, Modal, Progress, Row, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import {
  AD_IMPORT_ACCEPT, AD_IMPORT_FIELD_LABELS, AD_IMPORT_MAX_BYTES, AD_IMPORT_PLATFORMS, WHOLE_MEDIUM, WHOLE_MEDIUM_LABEL, adSpendApi,
  type AdImportPreview, type AdSpendFigures,
} from '@contracts/ad-spend.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { FileDrop } from '@/components/file-drop.tsx';
import { uploadWithProgress } from './upload.ts';
import { dayWithWeekday, formatCount, formatWon } from './format.ts';

const ENCODINGS: Record<string, string> = { 'utf-8': 'UTF-8', cp949: 'EUC-KR(CP949)', 'utf-16le': 'UTF-16', 'utf-16be': 'UTF-16' };

type PreviewRow = AdImportPreview['rows'][number];

/** What committing does to a row. */
function outcome(r: PreviewRow): { label: string; color: string } {
  if (r.blocked) return { label: '오류로 제외', color: 'red' };
  if (!r.impressions && !r.clicks && !r.spend) return r.existing ? { label: '삭제 (모두 0)', color: 'orange' } : { label: '변경 없음 (모두 0)', color: 'default' };
  return r.existing ? { label: '덮어쓰기', color: 'gold' } : { label: '새로 추가', color: 'green' };
}

const figures = (f: { impressions: number; clicks: number; spend: number }) => `${formatCount(f.impressions)} / ${formatCount(f.clicks)} / ${formatWon(f.spend)}`;

const rowColumns: ColumnsType<PreviewRow> = [
  { title: '날짜', dataIndex: 'day', key: 'day', width: 110, render: dayWithWeekday },
  { title: '매체', dataIndex: 'mediaTypeName', key: 'medium', width: 110 },
  { title: '랜딩', dataIndex: 'landingTitle', key: 'landing', ellipsis: true },
  // A refused day's figures are left out whole: its partial sums are not shown.
  { title: '노출', dataIndex: 'impressions', key: 'impressions', align: 'right', render: (v: number, r) => (r.blocked ? '-' : formatCount(v)) },
  { title: '클릭', dataIndex: 'clicks', key: 'clicks', align: 'right', render: (v: number, r) => (r.blocked ? '-' : formatCount(v)) },
  { title: '광고비', dataIndex: 'spend', key: 'spend', align: 'right', render: (v: number, r) => (r.blocked ? '-' : formatWon(v)) },
  {
    title: '지금 값 (노출 / 클릭 / 광고비)', key: 'existing', align: 'right',
    render: (_: unknown, r) => (r.existing ? figures(r.existing) : <Typography.Text type="secondary">없음</Typography.Text>),
  },
  { title: '파일 행', dataIndex: 'fileRows', key: 'fileRows', render: (v: number[]) => v.join(', ') },
  { title: '처리', key: 'outcome', width: 120, render: (_: unknown, r) => <Tag color={outcome(r).color}>{outcome(r).label}</Tag> },
];

const errorColumns: ColumnsType<AdImportPreview['errors'][number]> = [
  { title: '행', dataIndex: 'row', key: 'row', width: 70, align: 'right' },
  { title: '열', dataIndex: 'column', key: 'column', width: 160 },
  { title: '사유', dataIndex: 'message', key: 'message' },
];

interface Problem {
  message: string;
  field?: string;
}

interface Props {
  open: boolean;
  shopId: number;
  figures: Pick<AdSpendFigures, 'mediaTypes' | 'landings' | 'byLanding'>;
  onClose: () => void;
}

/** The first step: the medium and landing the figures are for, and the file. */
function UploadStep({ f, mediaTypeId, setMediaTypeId, landingId, setLandingId, problem, setProblem, progress, upload }: {
  f: Props['figures'];
  mediaTypeId: number | undefined;
  setMediaTypeId: (v: number | undefined) => void;
  landingId: number;
  setLandingId: (v: number) => void;
  problem: Problem | null;
  setProblem: (p: Problem | null) => void;
  progress: number | null;
  upload: (file: File) => Promise<void>;
}) {
  const mediumOptions = f.mediaTypes.map((m) => ({ value: m.id, label: m.name }));
  const landingOptions = [{ value: WHOLE_MEDIUM, label: WHOLE_MEDIUM_LABEL }, ...f.landings.map((l) => ({ value: l.id, label: l.title }))];
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Form layout="vertical" requiredMark={false}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              label="매체"
              help={problem?.field === 'mediaTypeId' ? problem.message : '파일에 매체 열(등록된 매체 이름이나 코드)이 있으면 비워 둘 수 있습니다.'}
              validateStatus={problem?.field === 'mediaTypeId' ? 'error' : undefined}
            >
              <Select
                aria-label="매체"
                allowClear
                placeholder="어느 매체의 보고서인가요?"
                options={mediumOptions}
                value={mediaTypeId}
                onChange={(v?: number) => {
                  setMediaTypeId(v);
                  setProblem(null);
                }}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item label="랜딩" help="한 랜딩의 광고비이면 고르세요. 아니면 매체 전체로 저장합니다.">
              <Select aria-label="랜딩" options={landingOptions} value={landingId} onChange={(v: number) => setLandingId(v)} showSearch={{ optionFilterProp: 'label' }} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {progress !== null ? (
        <div role="status" aria-live="polite" style={{ padding: '24px 0' }}>
          <Progress percent={progress < 100 ? progress : 99} status="active" aria-label="가져오기 진행률" />
          <Typography.Text type="secondary">{progress < 100 ? '파일을 올리는 중입니다…' : '파일을 읽고 행마다 검사하는 중입니다…'}</Typography.Text>
        </div>
      ) : (
        <FileDrop
          accept={AD_IMPORT_ACCEPT}
          onFile={(file) => void upload(file)}
          text="광고 플랫폼에서 내려받은 일별 보고서(CSV 또는 .xlsx)를 끌어 놓거나 눌러서 고르세요"
          hint="UTF-8, EUC-KR(엑셀 기본), UTF-16 모두 읽습니다. 같은 날짜의 행(캠페인별 행)은 더해서 하루치로 저장하고, 합계 행은 건너뜁니다."
        />
      )}
      {problem && problem.field !== 'mediaTypeId' && <Alert type="error" showIcon title="가져올 수 없는 파일입니다" description={problem.message} />}
      <div>
        <Typography.Text strong>읽을 수 있는 보고서</Typography.Text>
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          style={{ marginTop: 8 }}
          dataSource={AD_IMPORT_PLATFORMS.map((p) => ({ ...p }))}
          columns={[
            { title: '플랫폼', dataIndex: 'label', key: 'label', width: 140 },
            { title: '보고서', dataIndex: 'report', key: 'report', width: 150 },
            { title: '읽는 열', dataIndex: 'columns', key: 'columns' },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          날짜는 2026-11-01, 2026.11.01, 2026. 11. 1., 20261101 모두 읽고, 숫자의 쉼표·₩·원은 무시합니다. 광고비는 파일의 금액 그대로 저장합니다 (네이버 총비용은 VAT 포함).
          가져오면 그 날짜·매체의 값을 파일의 값으로 바꿉니다.
        </Typography.Paragraph>
      </div>
    </Space>
  );
}

/** The second step: what the file would write, its refused rows, and whether to leave them out. */
function PreviewStep({ preview, errorRows, skipErrors, setSkipErrors }: {
  preview: AdImportPreview;
  errorRows: number;
  skipErrors: boolean;
  setSkipErrors: (v: boolean) => void;
}) {
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Space wrap size={[8, 8]}>
        <Typography.Text strong>{preview.fileName}</Typography.Text>
        {preview.encoding && <Tag>{ENCODINGS[preview.encoding] ?? preview.encoding}</Tag>}
        <Typography.Text type="secondary">
          {formatCount(preview.totalRows)}행 읽음
          {preview.skippedTotals ? ` · 합계 행 ${formatCount(preview.skippedTotals)}개 건너뜀` : ''}
          {preview.period ? ` · ${preview.period.from} ~ ${preview.period.to}` : ''}
        </Typography.Text>
      </Space>
      <Space wrap size={[4, 4]}>
        <Typography.Text type="secondary">읽은 열:</Typography.Text>
        {preview.columns.map((c) => (
          <Tag key={c.field} color="blue">
            {AD_IMPORT_FIELD_LABELS[c.field]} ← {c.header}
          </Tag>
        ))}
        {(['impressions', 'clicks'] as const)
          .filter((field) => !preview.columns.some((c) => c.field === field))
          .map((field) => (
            <Tag key={field}>{AD_IMPORT_FIELD_LABELS[field]} 열 없음 (0으로 저장)</Tag>
          ))}
      </Space>
      {errorRows > 0 && (
        <Alert
          type="warning"
          showIcon
          title={`${formatCount(errorRows)}개 행에 오류가 있습니다`}
          description={
            <Space orientation="vertical" size={8} style={{ width: '100%' }}>
              <span>파일을 고쳐 다시 올리거나, 오류 행을 빼고 가져오세요. 오류 행이 있는 날짜는 그 날짜 전체를 가져오지 않습니다 (하루치가 모자라게 저장되지 않도록).</span>
              <Table
                size="small"
                rowKey={(e) => `${e.row}|${e.column}`}
                columns={errorColumns}
                dataSource={preview.errors}
                pagination={preview.errors.length > 8 ? { pageSize: 8, size: 'small' } : false}
              />
              <Checkbox checked={skipErrors} onChange={(e) => setSkipErrors(e.target.checked)}>
                오류 행 제외하고 가져오기
              </Checkbox>
            </Space>
          }
        />
      )}
      <Table<PreviewRow>
        size="small"
        rowKey={(r) => `${r.day}|${r.mediaTypeId}|${r.landingId}`}
        columns={rowColumns}
        dataSource={preview.rows}
        scroll={{ x: 'max-content', y: 360 }}
        pagination={false}
        locale={{ emptyText: '가져올 수 있는 행이 없습니다.' }}
      />
    </Space>
  );
}

export function ImportModal({ open, shopId, figures: f, onClose }: Props) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [mediaTypeId, setMediaTypeId] = useState<number | undefined>();
  const [landingId, setLandingId] = useState<number>(WHOLE_MEDIUM);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [preview, setPreview] = useState<AdImportPreview | null>(null);
  const [skipErrors, setSkipErrors] = useState(false);
  const [committing, setCommitting] = useState(false);

  const reset = () => {
    setPreview(null);
    setProgress(null);
    setProblem(null);
    setSkipErrors(false);
  };
  const close = () => {
    if (committing) return;
    reset();
    onClose();
  };

  async function upload(file: File) {
    setProblem(null);
    if (file.size > AD_IMPORT_MAX_BYTES) {
      return setProblem({ message: `파일은 ${AD_IMPORT_MAX_BYTES / 1024 / 1024}MB 이하만 올릴 수 있습니다. 기간을 나눠 내려받아 올려 주세요.` });
    }
    const body = new FormData();
    body.append('file', file, file.name);
    setProgress(0);
    try {
      const p = await uploadWithProgress(
        adSpendApi.importPreview,
        { params: { shopId }, query: { mediaTypeId, landingId: landingId || undefined }, body },
        (share) => setProgress(Math.round(share * 100)),
      );
      setPreview(p);
      setSkipErrors(false);
    } catch (err) {
      const field = err instanceof ApiError && err.fields ? Object.keys(err.fields)[0] : undefined;
      setProblem({ message: err instanceof Error ? err.message : '파일을 읽지 못했습니다.', field });
    } finally {
      setProgress(null);
    }
  }

  async function commit() {
    if (!preview) return;
    setCommitting(true);
    try {
      const r = await call(adSpendApi.importCommit, { params: { shopId }, body: { token: preview.token, skipErrors } });
      const parts = [`${formatCount(r.saved)}건을 저장했습니다`];
      if (r.deleted) parts.push(`${formatCount(r.deleted)}건을 지웠습니다`);
      if (r.skipped) parts.push(`오류로 ${formatCount(r.skipped)}건을 뺐습니다`);
      message.success(`광고비를 가져왔습니다. ${parts.join(', ')}.`);
      await invalidate(queryClient, [adSpendApi.figures]);
      reset();
      onClose();
    } catch (err) {
      message.error(err instanceof Error ? err.message : '가져오지 못했습니다.');
      // A preview past its time (or already used) cannot be committed: start over.
      if (err instanceof ApiError && err.status === 410) reset();
    } finally {
      setCommitting(false);
    }
  }

  const errorRows = preview ? new Set(preview.errors.map((e) => e.row)).size : 0;
  const writable = preview ? preview.rows.filter((r) => !r.blocked) : [];
  const canCommit = !!preview && writable.length > 0 && (errorRows === 0 || skipErrors);

  return (
    <Modal
      title="CSV 가져오기"
      open={open}
      width={preview ? 1040 : 720}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        preview
          ? [
              <Button key="again" onClick={reset} disabled={committing}>
                다른 파일 올리기
              </Button>,
              <Button key="cancel" onClick={close} disabled={committing}>
                취소
              </Button>,
              <Button key="commit" type="primary" loading={committing} disabled={!canCommit} onClick={commit}>
                {writable.length ? `${formatCount(writable.length)}건 가져오기` : '가져올 행이 없습니다'}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                닫기
              </Button>,
            ]
      }
    >
      {!preview ? (
        <UploadStep
          f={f}
          mediaTypeId={mediaTypeId}
          setMediaTypeId={setMediaTypeId}
          landingId={landingId}
          setLandingId={setLandingId}
          problem={problem}
          setProblem={setProblem}
          progress={progress}
          upload={upload}
        />
      ) : (
        <PreviewStep preview={preview} errorRows={errorRows} skipErrors={skipErrors} setSkipErrors={setSkipErrors} />
      )}
    </Modal>
  );
}
