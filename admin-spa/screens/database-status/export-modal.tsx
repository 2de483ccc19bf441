// 내보내기 on DB 현황: the current filter's leads as an XLSX or CSV file, with the reason the
// access record keeps and, for XLSX, an optional password. The file streams in: the progress
// estimates rows from the bytes received against the row count the server announced.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Alert, App, Button, Form, Input, Modal, Progress, Radio, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { leadsApi } from '@contracts/leads.ts';
import { EXPORT_ROWS_HEADER, leadExportApi, leadExportBody, type ExportFormat } from '@contracts/lead-export.ts';
import type { CallInput } from '@contracts/endpoint.ts';
import { ApiError, download } from '@/lib/api.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCall } from '@/lib/use-call.ts';
import { fieldErrors, zodRule } from '@/lib/zod-rule.ts';
import { formatNumber } from '@/lib/format.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';

type Body = CallInput<typeof leadExportApi.export>['body'];

interface Values {
  format: ExportFormat;
  reason: string;
  password?: string;
  passwordConfirm?: string;
}

/** Roughly what one lead weighs in each file (measured on bulk data), to turn bytes into rows. */
const BYTES_PER_ROW: Record<ExportFormat, number> = { csv: 240, xlsx: 110 };

const FORM_FIELDS = ['format', 'reason', 'password'];

const formatBytes = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`);

interface ExportButtonProps {
  shopId: number;
  /** The list's period. */
  from: string;
  to: string;
  /** The list's filter names (their values are in the URL). */
  filterNames: string[];
}

/** The toolbar's 내보내기 button, for an account whose type may export. */
export function ExportButton(props: ExportButtonProps) {
  const { account } = useAuth();
  const [open, setOpen] = useState(false);
  if (!account?.canExport) return null;
  return (
    <>
      <Button icon={<DownloadOutlined />} onClick={() => setOpen(true)}>
        내보내기
      </Button>
      {open && <ExportModal {...props} onClose={() => setOpen(false)} />}
    </>
  );
}

interface Progressing {
  bytes: number;
  /** The rows the server announced (null until its answer arrives). */
  rows: number | null;
}

function ExportModal({ shopId, from, to, filterNames, onClose }: ExportButtonProps & { onClose: () => void }) {
  const { account } = useAuth();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const format = Form.useWatch('format', form) ?? 'xlsx';
  const [search] = useSearchParams();
  const filter: Record<string, string> = { from, to };
  for (const name of filterNames) {
    const v = search.get(name);
    if (v) filter[name] = v;
  }
  // The same count the list shows (one row fetched): what the file will hold.
  const count = useCall(leadsApi.list, { params: { shopId }, query: { ...filter, page: 1, pageSize: 1 } as never });
  const total = count.data?.total;
  const [progress, setProgress] = useState<Progressing | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const guard = useCloseGuard(onClose);
  useTrackChanges(guard, form);

  async function submit(v: Values) {
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ bytes: 0, rows: null });
    try {
      const body = { ...filter, format: v.format, reason: v.reason, ...(v.format === 'xlsx' && v.password ? { password: v.password } : {}) } as Body;
      let rows: number | null = null;
      const name = await download(leadExportApi.export, { params: { shopId }, body }, {
        signal: controller.signal,
        onProgress: ({ bytes, headers }) => {
          const announced = Number(headers.get(EXPORT_ROWS_HEADER) ?? NaN);
          rows = Number.isFinite(announced) ? announced : null;
          setProgress({ bytes, rows });
        },
      });
      message.success(`${rows === null ? '' : `${formatNumber(rows)}건을 `}${name} 파일로 내보냈습니다.`);
      onClose();
    } catch (err) {
      if ((err as Error)?.name === 'AbortError') return;
      setProgress(null);
      // The server's field errors next to the form's fields (a period error is the list's: the message says it).
      if (err instanceof ApiError && err.fields) form.setFields(fieldErrors(err.fields).filter((f) => FORM_FIELDS.includes(String(f.name[0]))) as never);
      message.error(err instanceof Error ? err.message : '내보내지 못했습니다.');
    }
  }

  const busy = progress !== null;
  const estimated = progress && progress.rows !== null ? Math.min(progress.rows, Math.round(progress.bytes / BYTES_PER_ROW[format])) : null;
  const percent = progress?.rows ? Math.min(99, Math.round(((estimated ?? 0) / progress.rows) * 100)) : 0;

  return (
    <Modal
      open
      title="DB 내보내기"
      okText="내보내기"
      cancelText={busy ? '중단' : '취소'}
      okButtonProps={{ loading: busy, disabled: total === 0 }}
      onOk={() => form.submit()}
      // 중단 stops the export at once; 취소 asks first when a reason was typed.
      onCancel={busy ? onClose : guard.requestClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Form<Values> form={form} name="lead-export" layout="vertical" requiredMark="optional" initialValues={{ format: 'xlsx' }} onFinish={submit} disabled={busy} style={{ marginTop: 16 }}>
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={
            total === undefined
              ? '현재 조건의 DB를 세는 중입니다…'
              : `현재 조건(${from} ~ ${to}${filterNames.some((n) => search.get(n)) ? ', 필터 적용' : ''})의 DB ${formatNumber(total)}건을 내보냅니다.`
          }
          description={
            account?.canUnmask
              ? '연락처는 전체 번호로 내보냅니다. 파일을 다루는 데 주의하세요.'
              : '연락처는 가운데를 가려(010-****-5678) 내보냅니다.'
          }
        />
        <Form.Item label="파일 형식" name="format" rules={[zodRule(leadExportBody, 'format')]}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'xlsx', label: 'Excel (XLSX)' },
              { value: 'csv', label: 'CSV' },
            ]}
          />
        </Form.Item>
        <Form.Item label="내보내는 사유" name="reason" required rules={[zodRule(leadExportBody, 'reason')]} extra="접근 기록에 남습니다.">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} placeholder="예: 11월 상담 결과 보고" />
        </Form.Item>
        {format === 'xlsx' && (
          <>
            <Form.Item label="파일 암호" name="password" rules={[zodRule(leadExportBody, 'password')]} extra="입력하면 이 암호로만 파일을 열 수 있습니다.">
              <Input.Password autoComplete="new-password" maxLength={255} />
            </Form.Item>
            <Form.Item
              label="파일 암호 확인"
              name="passwordConfirm"
              dependencies={['password']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: async (_rule, value: string | undefined) => {
                    if ((getFieldValue('password') || '') !== (value || '')) throw new Error('암호가 서로 다릅니다.');
                  },
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" maxLength={255} />
            </Form.Item>
          </>
        )}
        <button type="submit" hidden />
      </Form>
      {progress && (
        <div role="status" aria-live="polite">
          <Progress percent={percent} status="active" aria-label="내보내기 진행률" />
          <Typography.Text type="secondary">
            {progress.bytes === 0
              ? format === 'xlsx' && form.getFieldValue('password')
                ? '파일을 만들고 암호를 거는 중입니다…'
                : '파일을 만드는 중입니다…'
              : `${formatBytes(progress.bytes)} 받음${progress.rows !== null ? ` · 약 ${formatNumber(estimated)} / ${formatNumber(progress.rows)}건` : ''}`}
          </Typography.Text>
        </div>
      )}
    </Modal>
  );
}
