// A counselor's phone in the lead drawer: one tap to call, one tap for the outcome. 전화 걸기
// asks the server for the number (the reveal and the 통화 시도 are recorded with the time, and the
// first call stops the SLA clock), then hands it to the phone's dialer as a `tel:` link; from then
// on the button is that link, and each further tap records another call. The outcomes are the
// status changes the list makes (상담예약 asks for its time, 무효 for its reason).
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { App, Button, Typography } from 'antd';
import { PhoneOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { leadsApi, type CsStatus, type LeadDetail } from '@contracts/leads.ts';
import { withJosa } from '@contracts/korean.ts';
import { ApiError, call } from '@/lib/api.ts';
import { invalidate } from '@/lib/use-call.ts';
import { formatDateTime } from '@/lib/format.ts';
import { StatusDialogModal, useLeadSave } from './lead-edits.tsx';
import { SlaCountdown } from './sla-countdown.tsx';
import './call-panel.css';

/** The outcomes of a call, in the order a counselor reaches for them. */
const OUTCOMES = ['통화완료', '부재', '상담예약', '무효'] as const satisfies readonly CsStatus[];

const telOf = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

export function CallPanel({ shopId, d, canCall, slaOn }: { shopId: number; d: LeadDetail; canCall: boolean; slaOn: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const save = useLeadSave(shopId);
  const [phone, setPhone] = useState<string | null>(null);
  const [calling, setCalling] = useState(false);
  const [dialog, setDialog] = useState<Parameters<typeof StatusDialogModal>[0]['dialog']>(null);
  const link = useRef<HTMLAnchorElement>(null);
  /** The next click is our own, handing the number to the dialer: it records nothing. */
  const dialing = useRef(false);

  /** Records a call (and answers the number); the drawer and the list read the lead again. */
  const record = async () => {
    const res = await call(leadsApi.callAttempt, { params: { shopId, id: d.id } });
    void invalidate(queryClient, [leadsApi.list, leadsApi.get]);
    return res;
  };

  const onCall = async (e: React.MouseEvent<HTMLElement>) => {
    if (dialing.current) {
      dialing.current = false;
      return;
    }
    if (phone) {
      // The link dials by itself; the call is recorded beside it.
      record().catch((err: unknown) => message.error(err instanceof ApiError ? err.message : '통화 기록을 남기지 못했습니다.'));
      return;
    }
    e.preventDefault();
    setCalling(true);
    try {
      const res = await record();
      // The button becomes the tel: link, which is followed at once — still within the tap's user
      // activation, so the dialer opens as if the link itself had been tapped.
      // (Not loading by then: a loading button refuses clicks.)
      flushSync(() => {
        setPhone(res.phone);
        setCalling(false);
      });
      dialing.current = true;
      link.current?.click();
    } catch (err) {
      message.error(err instanceof ApiError ? err.message : '전화번호를 가져오지 못했습니다.');
    } finally {
      setCalling(false);
    }
  };

  const choose = (status: (typeof OUTCOMES)[number]) => {
    const done = `${withJosa(status, '으로/로')} 바꿨습니다.`;
    if (status === '상담예약' || status === '무효') setDialog({ status, reservedAt: d.reservedAt, apply: (extra) => save(d.id, { csStatus: status, ...extra }, done) });
    else void save(d.id, { csStatus: status }, done);
  };

  return (
    <div className="lr-call-panel">
      <div className="lr-call-head">
        <Typography.Text strong>{phone ?? d.phone}</Typography.Text>
        <SlaCountdown row={d} slaOn={slaOn} />
      </div>
      {canCall && (
        <Button
          ref={link as React.Ref<HTMLAnchorElement>}
          type="primary"
          size="large"
          block
          icon={<PhoneOutlined />}
          // Before the number is known the button asks for it; after, it is the dialer's link.
          href={phone ? telOf(phone) : '#call'}
          loading={calling}
          onClick={onCall}
          aria-label={phone ? `전화 걸기 ${phone}` : '전화 걸기'}
        >
          전화 걸기
        </Button>
      )}
      <div className="lr-outcomes" role="group" aria-label="통화 결과">
        {OUTCOMES.map((s) => (
          <Button key={s} size="large" type={d.csStatus === s ? 'primary' : 'default'} ghost={d.csStatus === s} aria-pressed={d.csStatus === s} onClick={() => choose(s)}>
            {s}
          </Button>
        ))}
      </div>
      {d.reservedAt && d.csStatus === '상담예약' && <Typography.Text type="secondary">예약 {formatDateTime(d.reservedAt)}</Typography.Text>}
      <StatusDialogModal dialog={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}
