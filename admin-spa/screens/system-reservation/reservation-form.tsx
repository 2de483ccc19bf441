// The create/edit form of a reservation: the kind decides the rest — a landing (any shop's) and
// the moment for 랜딩 게시/종료; a window and its notice for 시스템 점검; a period, the text and the
// account types for 공지; for 실험 종료 (made in 랜딩 관리 › A/B 실험) only its moment and title. Every field is checked by the contract's own schema, kind and all.
import { useMemo } from 'react';
import type { Dayjs } from 'dayjs';
import { Alert, DatePicker, Flex, Form, Input, Segmented, Select, type FormInstance } from 'antd';
import type { Rule } from 'antd/es/form/index.js';
import {
  ANNOUNCEMENT_MAX_DAYS, isExperimentKind, isLandingKind, MAINTENANCE_MAX_HOURS, MAINTENANCE_NOTICE_HOURS, RESERVATION_KINDS, RESERVATION_KIND_LABELS, START_SLACK_MS,
  systemReservationInput, systemReservationsApi, type ReservationKind, type SystemReservation,
} from '@contracts/system-reservations.ts';
import { LANDING_STATUS_LABELS } from '@contracts/landings.ts';
import { SCREENS } from '@contracts/screens.ts';
import { AREA_LABELS } from '@contracts/permissions.ts';
import { useCall } from '@/lib/use-call.ts';
import { ResourceForm } from '@/components/resource-form.tsx';
import { saveWith } from '@/components/crud.tsx';
import { beforeToday, fromPicker, toPicker } from '@/lib/seoul-time.ts';

const api = systemReservationsApi;

interface FormValues {
  kind: ReservationKind;
  title?: string;
  startsAt?: Dayjs | null;
  endsAt?: Dayjs | null;
  message?: string;
  landingId?: number | null;
  experimentId?: number | null;
  accountTypeIds?: number[];
  screen?: string | null;
}

const toBody = (v: FormValues) => ({
  kind: v.kind,
  title: v.title ?? '',
  startsAt: fromPicker(v.startsAt) ?? undefined,
  endsAt: fromPicker(v.endsAt),
  message: v.message ?? '',
  landingId: v.landingId ?? null,
  experimentId: v.experimentId ?? null,
  accountTypeIds: v.accountTypeIds ?? [],
  screen: v.screen ?? null,
});

/**
 * A field's rule from the whole input's schema: the kind-dependent checks land on the field they
 * concern. The other required fields stand in with valid values while one is checked (each says
 * its own problem), since the schema checks across fields only once each field is well-formed.
 */
const schemaRule = (form: FormInstance<FormValues>, field: keyof FormValues): Rule => ({
  validator: async () => {
    const body = toBody(form.getFieldsValue(true) as FormValues);
    const endsAt = body.endsAt ? Date.parse(body.endsAt) : null;
    const probe = {
      ...body,
      title: field === 'title' ? body.title : 'x',
      startsAt: field === 'startsAt' ? body.startsAt : (body.startsAt ?? new Date(endsAt ? endsAt - 60_000 : Date.now() + 3600_000).toISOString()),
    };
    const result = systemReservationInput.safeParse(probe);
    const issue = result.success ? undefined : result.error.issues.find((i) => i.path[0] === field);
    if (issue) throw new Error(issue.message);
    // The server's own check, said before sending (it allows the same slack).
    if (field === 'startsAt' && result.success && Date.parse(result.data.startsAt) < Date.now() - START_SLACK_MS) throw new Error('시작 일시는 지금 이후로 잡으세요.');
  },
});

const TITLE_PLACEHOLDERS: Record<ReservationKind, string> = {
  maintenance: '예: 데이터베이스 서버 교체',
  'landing-open': '예: 12월 임플란트 이벤트 시작',
  'landing-close': '예: 11월 이벤트 마감',
  announcement: '예: 연말 정산 일정 안내',
  'experiment-stop': '예: 대표 문구 실험 종료',
};

export function ReservationForm({ open, editing, onClose }: { open: boolean; editing: SystemReservation | null; onClose: () => void }) {
  const initialValues = useMemo<Partial<FormValues>>(
    () =>
      editing
        ? {
            kind: editing.kind, title: editing.title, startsAt: toPicker(editing.startsAt), endsAt: toPicker(editing.endsAt),
            message: editing.message ?? '', landingId: editing.landingId, experimentId: editing.experimentId, accountTypeIds: editing.accountTypes.map((a) => a.id), screen: editing.screen,
          }
        : { kind: 'maintenance', accountTypeIds: [] },
    [editing],
  );
  return (
    <ResourceForm<FormValues>
      open={open}
      title={editing ? '예약 수정' : '예약 등록'}
      width={640}
      initialValues={initialValues}
      submit={(v) => saveWith(api, editing)(toBody(v) as never)}
      onClose={onClose}
      // The banner shows a new window or announcement at once.
      invalidates={[api.list, api.notices]}
      successMessage={editing ? '예약을 수정했습니다.' : '예약했습니다.'}
    >
      {(form) => <Fields form={form} open={open} editing={editing} />}
    </ResourceForm>
  );
}

function Fields({ form, open, editing }: { form: FormInstance<FormValues>; open: boolean; editing: SystemReservation | null }) {
  const kind = (Form.useWatch('kind', form) ?? 'maintenance') as ReservationKind;
  const options = useCall(api.options, undefined, { enabled: open });
  const landingOptions = useMemo(() => {
    const groups = new Map<string, Array<{ value: number; label: string; search: string }>>();
    for (const l of options.data?.landings ?? []) {
      const list = groups.get(l.shopName) ?? [];
      list.push({ value: l.id, label: `${l.title} (${l.landingCode}) · ${LANDING_STATUS_LABELS[l.status]}`, search: `${l.shopName} ${l.title} ${l.landingCode}` });
      groups.set(l.shopName, list);
    }
    return [...groups].map(([shop, list]) => ({ label: shop, title: shop, options: list }));
  }, [options.data]);
  const typeOptions = (options.data?.accountTypes ?? []).filter((t) => t.active).map((t) => ({ value: t.id, label: `${t.name} (${t.area === 'admin' ? '관리자' : '업체'})` }));
  const rule = (field: keyof FormValues) => [schemaRule(form, field)];
  const picker = (label: string) => (
    <DatePicker
      showTime={{ format: 'HH:mm', minuteStep: 5 }}
      format="YYYY-MM-DD HH:mm"
      disabledDate={beforeToday}
      style={{ width: '100%' }}
      placeholder={label}
      aria-label={label}
    />
  );
  const experiment = isExperimentKind(kind);
  const landing = isLandingKind(kind) || experiment;
  // An experiment's stop is made from its experiment (랜딩 관리 › A/B 실험); here it is changed, and stays what it is.
  const kinds = experiment ? ['experiment-stop' as const] : RESERVATION_KINDS.filter((k) => !isExperimentKind(k));

  return (
    <>
      <Form.Item label="종류" name="kind" required>
        <Segmented block options={kinds.map((k) => ({ value: k, label: RESERVATION_KIND_LABELS[k] }))} />
      </Form.Item>
      <Form.Item label="제목" name="title" required rules={rule('title')}>
        <Input maxLength={100} placeholder={TITLE_PLACEHOLDERS[kind]} />
      </Form.Item>
      {experiment && (
        <>
          <Form.Item name="landingId" hidden><Input /></Form.Item>
          <Form.Item name="experimentId" hidden><Input /></Form.Item>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${editing?.landing ? `${editing.landing.shopName} · ${editing.landing.title}` : '삭제된 랜딩'}의 A/B 실험 ‘${editing?.experimentName ?? '삭제된 실험'}’`}
            description="정한 시각에 채택 없이 종료되고 결과가 보관됩니다. 실험안을 채택하려면 랜딩 관리의 A/B 실험에서 직접 종료하세요."
          />
        </>
      )}
      {landing && !experiment && (
        <Form.Item label="랜딩" name="landingId" required rules={rule('landingId')} extra="모든 업체의 랜딩에서 고릅니다. 업체 이름이나 랜딩 제목으로 찾을 수 있습니다.">
          <Select
            showSearch={{ optionFilterProp: 'search' }}
            loading={options.isLoading}
            options={landingOptions}
            placeholder="랜딩을 선택하세요"
            aria-label="랜딩"
            notFoundContent="랜딩이 없습니다."
          />
        </Form.Item>
      )}
      {landing ? (
        <Form.Item
          label={kind === 'landing-open' ? '게시 일시 (한국 시간)' : experiment ? '실험 종료 일시 (한국 시간)' : '종료 일시 (한국 시간)'}
          name="startsAt"
          required
          rules={rule('startsAt')}
          extra="정한 시각부터 15초 안에 실행됩니다."
        >
          {picker('실행 일시')}
        </Form.Item>
      ) : (
        <Flex gap={12}>
          <Form.Item label={kind === 'maintenance' ? '점검 시작 (한국 시간)' : '게시 시작 (한국 시간)'} name="startsAt" required rules={rule('startsAt')} style={{ flex: 1 }}>
            {picker('시작 일시')}
          </Form.Item>
          <Form.Item
            label={kind === 'maintenance' ? '점검 종료' : '게시 종료'}
            name="endsAt"
            required
            dependencies={['startsAt']}
            rules={rule('endsAt')}
            style={{ flex: 1 }}
          >
            {picker('종료 일시')}
          </Form.Item>
        </Flex>
      )}
      {!landing && (
        <Form.Item label={kind === 'maintenance' ? '안내 문구' : '공지 내용'} name="message" required rules={rule('message')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 6 }}
            maxLength={500}
            showCount
            placeholder={kind === 'maintenance' ? '예: 데이터베이스 서버를 교체합니다. 점검 중 접수된 DB는 그대로 저장됩니다.' : '예: 12월 31일은 정산 마감일입니다.'}
          />
        </Form.Item>
      )}
      {kind === 'announcement' && (
        <Form.Item label="보여줄 계정 유형" name="accountTypeIds" rules={rule('accountTypeIds')} extra="비워 두면 모든 계정에 보입니다.">
          <Select mode="multiple" allowClear options={typeOptions} loading={options.isLoading} placeholder="모든 계정" aria-label="보여줄 계정 유형" />
        </Form.Item>
      )}
      {kind === 'announcement' && (
        <Form.Item label="관련 화면" name="screen" rules={rule('screen')} extra="고르면 그 화면을 열 수 있는 계정에만 보입니다 (예: 계약 현황 공지는 상담원에게 보이지 않습니다).">
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="특정 화면과 관계없음"
            aria-label="관련 화면"
            options={SCREENS.map((sc) => ({ value: sc.key, label: `${sc.title} (${AREA_LABELS[sc.area]})` }))}
          />
        </Form.Item>
      )}
      {kind === 'maintenance' && (
        <Alert
          type="warning"
          showIcon
          title="점검 중에는 최고관리자 외에는 관리 화면을 쓸 수 없습니다."
          description={`${MAINTENANCE_NOTICE_HOURS}시간 전부터 모든 관리 화면 위에 예고가 보입니다. 랜딩 페이지, DB 접수와 전송은 그대로 동작합니다. 최대 ${MAINTENANCE_MAX_HOURS}시간까지 잡을 수 있습니다.`}
        />
      )}
      {kind === 'announcement' && (
        <Alert type="info" showIcon title={`게시 기간 동안 관리 화면 위에 보입니다 (최대 ${ANNOUNCEMENT_MAX_DAYS}일). 읽은 사람은 닫을 수 있습니다.`} />
      )}
    </>
  );
}
