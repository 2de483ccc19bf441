// The edits a lead takes where it is shown (a row of the list, the detail drawer): its status
// (상담예약 asks for a time, 무효 for a reason), its appointment, its memo, and revealing its phone.
import { useState } from 'react';
import type { Dayjs } from 'dayjs';
import { App, AutoComplete, Button, DatePicker, Form, Input, Modal, Popover, Select, Space, Tag, TimePicker, Typography } from 'antd';
import { EditOutlined, EyeOutlined, PhoneOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  CS_STATUSES, INVALID_REASON_REQUIRED, RESERVATION_REQUIRED, SETTABLE_STATUSES, leadsApi, type CsStatus, type LeadUpdate,
} from '@contracts/leads.ts';
import { withJosa } from '@contracts/korean.ts';
import { RETURN_REASONS } from '@contracts/money.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { useCloseGuard, useTrackChanges } from '@/lib/close-guard.ts';
import { STATUS_COLORS, StatusTag } from '@/components/status-tag.tsx';
import { fromPicker, toPicker } from '@/lib/seoul-time.ts';
import { usePhone } from '@/lib/use-phone.ts';

export const statusOptions = CS_STATUSES.map((s) => ({ value: s, label: s }));
const settable = SETTABLE_STATUSES.map((s) => ({ value: s, label: <Tag color={STATUS_COLORS[s]}>{s}</Tag> }));

/** Now on the picker's clock: Seoul's wall-clock time, whatever the browser's zone. */
const seoulNow = () => toPicker(Date.now())!;

/** Minutes an appointment is picked in. */
const MINUTE_STEP = 10;

/** The first hour of today with a step left in it: this one, unless its last step (:50) has gone by (24: none today). */
const firstOpenHour = (now: Dayjs) => (Math.ceil(now.minute() / MINUTE_STEP) * MINUTE_STEP >= 60 ? now.hour() + 1 : now.hour());

/**
 * The appointment picker offers no day or time already past (the server refuses them too); the
 * current minute is still now, and an hour with no step left in it is past. Read when the picker
 * asks, so a dialog left open keeps up.
 */
export const FUTURE_ONLY = {
  disabledDate: (d: Dayjs) => {
    const now = seoulNow();
    return d.isBefore(now, 'day') || (d.isSame(now, 'day') && firstOpenHour(now) > 23);
  },
  disabledTime: (d: Dayjs | null) => {
    const now = seoulNow();
    if ((d ?? now).isAfter(now, 'day')) return {};
    const before = (n: number) => Array.from({ length: n }, (_, i) => i);
    const firstHour = firstOpenHour(now);
    return {
      disabledHours: () => before(firstHour),
      disabledMinutes: (hour: number) => (hour < now.hour() ? before(60) : hour === now.hour() ? before(now.minute()) : []),
    };
  },
};

/** Saves an edit of one lead and refreshes what shows leads. */
export function useLeadSave(shopId: number) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return async (id: number, body: LeadUpdate, success = '저장했습니다.') => {
    try {
      await call(leadsApi.update, { params: { shopId, id }, body });
      await invalidate(queryClient, [leadsApi.list, leadsApi.get]);
      message.success(success);
      return true;
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : '저장하지 못했습니다.');
      return false;
    }
  };
}

interface StatusDialog {
  status: '상담예약' | '무효';
  /** Applies the status with what the dialog asked for. */
  apply: (extra: { reservedAt?: string; reason?: string }) => Promise<boolean>;
  reservedAt?: string | null;
}

/**
 * An appointment's day and time as two pickers side by side: on a phone the one picker with its
 * time columns beside the calendar is wider than the screen. The value is whole once both are set.
 */
function SplitDateTime({ value, onChange }: { value?: Dayjs | null; onChange?: (v: Dayjs | null) => void }) {
  const [day, setDay] = useState<Dayjs | null>(value ?? null);
  const [time, setTime] = useState<Dayjs | null>(value ?? null);
  const emit = (d: Dayjs | null, t: Dayjs | null) => onChange?.(d && t ? d.hour(t.hour()).minute(t.minute()).second(0).millisecond(0) : null);
  return (
    <Space.Compact block>
      <DatePicker
        aria-label="예약 날짜"
        format="YYYY-MM-DD"
        value={day}
        disabledDate={FUTURE_ONLY.disabledDate}
        onChange={(d) => {
          setDay(d);
          emit(d, time);
        }}
        style={{ flex: 3 }}
      />
      <TimePicker
        aria-label="예약 시각"
        format="HH:mm"
        minuteStep={MINUTE_STEP}
        needConfirm={false}
        value={time}
        disabledTime={() => FUTURE_ONLY.disabledTime(day)}
        onChange={(t) => {
          setTime(t);
          emit(day, t);
        }}
        style={{ flex: 2 }}
      />
    </Space.Compact>
  );
}

/** The dialog a status needs before it is applied: an appointment's time, or why the lead is 무효. */
export function StatusDialogModal({ dialog, onClose }: { dialog: StatusDialog | null; onClose: () => void }) {
  const [form] = Form.useForm<{ reservedAt?: Dayjs; reason?: string }>();
  const [busy, setBusy] = useState(false);
  const phone = usePhone();
  const guard = useCloseGuard(onClose);
  useTrackChanges(guard, form, !!dialog);
  if (!dialog) return null;
  const reserve = dialog.status === '상담예약';
  return (
    <Modal
      open
      title={reserve ? '상담예약 시간' : '무효 사유'}
      okText="적용"
      cancelText="취소"
      confirmLoading={busy}
      destroyOnHidden
      onCancel={guard.requestClose}
      onOk={async () => {
        const v = await form.validateFields().catch(() => null);
        if (!v) return;
        setBusy(true);
        const ok = await dialog.apply(reserve ? { reservedAt: fromPicker(v.reservedAt)! } : { reason: v.reason!.trim() });
        setBusy(false);
        if (ok) onClose();
      }}
    >
      <Form form={form} layout="vertical" requiredMark="optional" initialValues={{ reservedAt: toPicker(dialog.reservedAt) ?? undefined }}>
        {reserve ? (
          <Form.Item label="예약 시간" name="reservedAt" required rules={[{ required: true, message: RESERVATION_REQUIRED }]}>
            {phone ? (
              <SplitDateTime />
            ) : (
              <DatePicker showTime={{ format: 'HH:mm', minuteStep: MINUTE_STEP }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} autoFocus {...FUTURE_ONLY} />
            )}
          </Form.Item>
        ) : (
          <Form.Item label="사유" name="reason" required rules={[{ required: true, whitespace: true, message: INVALID_REASON_REQUIRED }]}>
            {/* The reasons a return names are offered; any other can be written. */}
            <AutoComplete
              options={RETURN_REASONS.filter((r) => r !== '기타').map((r) => ({ value: r }))}
              filterOption={(input, o) => String(o?.value ?? '').includes(input)}
            >
              <Input maxLength={200} placeholder="예: 장난 신청, 본인 아님" autoFocus />
            </AutoComplete>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/** A status select that asks what 상담예약 and 무효 need before saving. */
export function StatusSelect({ shopId, id, status, reservedAt, disabled }: { shopId: number; id: number; status: CsStatus; reservedAt: string | null; disabled?: boolean }) {
  const save = useLeadSave(shopId);
  const [dialog, setDialog] = useState<StatusDialog | null>(null);
  if (disabled) return <StatusTag status={status} />;
  return (
    <>
      <Select<CsStatus>
        size="small"
        variant="borderless"
        value={status}
        aria-label="상담 상태"
        popupMatchSelectWidth={false}
        style={{ minWidth: 96 }}
        options={status === '중복' ? [{ value: '중복', label: <Tag color={STATUS_COLORS['중복']}>중복</Tag> }, ...settable] : settable}
        labelRender={() => <StatusTag status={status} />}
        onChange={(next) => {
          if (next === '상담예약' || next === '무효') {
            setDialog({ status: next, reservedAt, apply: (extra) => save(id, { csStatus: next, ...extra }, `${withJosa(next, '으로/로')} 바꿨습니다.`) });
          } else void save(id, { csStatus: next }, `${withJosa(next, '으로/로')} 바꿨습니다.`);
        }}
      />
      <StatusDialogModal dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}

/** The appointment time, changed in place. */
export function ReservationCell({ shopId, id, reservedAt, writable }: { shopId: number; id: number; reservedAt: string | null; writable: boolean }) {
  const save = useLeadSave(shopId);
  const [open, setOpen] = useState(false);
  const text = reservedAt ? formatDateTime(reservedAt) : <Typography.Text type="secondary">-</Typography.Text>;
  if (!writable) return text;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title="예약 시간"
      content={
        <DatePicker
          open={open}
          showTime={{ format: 'HH:mm', minuteStep: MINUTE_STEP }}
          format="YYYY-MM-DD HH:mm"
          defaultValue={toPicker(reservedAt) ?? undefined}
          {...FUTURE_ONLY}
          onChange={async (v) => {
            if (await save(id, { reservedAt: fromPicker(v) }, '예약 시간을 저장했습니다.')) setOpen(false);
          }}
          getPopupContainer={(el) => el.parentElement ?? document.body}
        />
      }
    >
      {/* The name starts with the time it shows (WCAG 2.5.3: what is seen is what is said). */}
      <Button type="link" size="small" style={{ paddingInline: 0 }} aria-label={reservedAt ? `${formatDateTime(reservedAt)}, 예약 시간 바꾸기` : '예약 시간 정하기'}>
        {text}
      </Button>
    </Popover>
  );
}

/** The memo's first line; a click edits the whole memo. */
export function MemoCell({ shopId, id, excerpt, writable, load }: {
  shopId: number;
  id: number;
  excerpt: string | null;
  writable: boolean;
  /** The whole memo (the list carries its first line only). */
  load: () => Promise<string | null>;
}) {
  const save = useLeadSave(shopId);
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<string>('');
  const shown = excerpt ? <Typography.Text ellipsis style={{ maxWidth: 220 }}>{excerpt}</Typography.Text> : null;
  if (!writable) return shown ?? <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Popover
      open={open}
      trigger="click"
      title="메모"
      onOpenChange={async (next) => {
        if (next) setValue((await load()) ?? '');
        setOpen(next);
      }}
      content={
        <Space orientation="vertical" style={{ width: 320 }}>
          <Input.TextArea value={value} onChange={(e) => setValue(e.target.value)} autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} autoFocus aria-label="메모" />
          <Space style={{ justifyContent: 'flex-end', width: '100%' }}>
            <Button size="small" onClick={() => setOpen(false)}>
              취소
            </Button>
            <Button size="small" type="primary" onClick={async () => (await save(id, { memo: value }, '메모를 저장했습니다.')) && setOpen(false)}>
              저장
            </Button>
          </Space>
        </Space>
      }
    >
      {shown ? (
        <Button type="link" size="small" style={{ paddingInline: 0, color: 'inherit' }} aria-label={`메모 편집: ${excerpt}`}>
          {shown}
        </Button>
      ) : (
        <Button type="text" size="small" icon={<EditOutlined />} aria-label="메모 쓰기" title="메모 쓰기" style={{ color: '#bfbfbf' }} />
      )}
    </Popover>
  );
}

/** A masked phone; with the unmask right, one click shows the number (and records it). */
export function PhoneCell({ shopId, id, masked, canUnmask }: { shopId: number; id: number; masked: string; canUnmask: boolean }) {
  const [phone, setPhone] = useState<string | null>(null);
  const { message } = App.useApp();
  if (phone) {
    return (
      <Typography.Link href={`tel:${phone.replace(/-/g, '')}`} style={{ whiteSpace: 'nowrap' }}>
        <PhoneOutlined /> {phone}
      </Typography.Link>
    );
  }
  return (
    <Space size={4} style={{ whiteSpace: 'nowrap' }}>
      <span>{masked}</span>
      {canUnmask && (
        <Button
          type="text"
          size="small"
          icon={<EyeOutlined />}
          aria-label="전화번호 보기"
          title="전화번호 보기 (열람 기록이 남습니다)"
          onClick={async () => {
            try {
              setPhone((await call(leadsApi.unmask, { params: { shopId, id } })).phone);
            } catch (err) {
              message.error((err as Error).message);
            }
          }}
        />
      )}
    </Space>
  );
}

/** Minutes or hours and minutes, as a person reads a wait. */
export function duration(ms: number): string {
  const m = Math.max(0, Math.round(ms / 60_000));
  if (m < 60) return `${m}분`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h}시간 ${m % 60}분` : `${h}시간`;
  return `${Math.floor(h / 24)}일`;
}
