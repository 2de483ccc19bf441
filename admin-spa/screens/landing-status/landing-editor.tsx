// The landing editor: a wide drawer with the form (basics, content, form builder,
// consent and thank-you) on the left and the live preview on the right.
import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert, App, Button, Col, DatePicker, Form, Input, InputNumber, Popconfirm, Radio, Row, Select, Skeleton, Space, Switch, Tabs, Tag, type FormInstance,
} from 'antd';
import { LANDING_STATE_LABELS, landingInput, landingPath, landingsApi, type Landing } from '@contracts/landings.ts';
import { privacyPoliciesApi } from '@contracts/privacy.ts';
import { ApiError, call } from '@/lib/api.ts';
import { apiKey, invalidate, useCall } from '@/lib/use-call.ts';
import { formatDate } from '@/lib/format.ts';
import { useCodeOptions } from '@/lib/options.ts';
import { fieldErrors } from '@/lib/zod-rule.ts';
import { useDraft } from '@/lib/use-draft.ts';
import { useAuth } from '@/lib/auth.tsx';
import { useCloseGuard, useTrackChanges, type CloseGuard } from '@/lib/close-guard.ts';
import { draftKey } from '@/lib/kept-drafts.ts';
import { useKeptDraft } from '@/lib/use-kept-draft.ts';
import { DraftOffer } from '@/components/draft-offer.tsx';
import { FormBuilder } from './form-builder.tsx';
import { ContentTab, EditorDrawer, usePolicyCoverage } from './landing-content.tsx';
import { LandingPreview } from './landing-preview.tsx';
import { landingRule, newLandingValues, parseInput, toEditorValues, type EditorValues } from './landing-form.ts';
import { STATE_COLORS } from './state.ts';
import { warnContractGap } from './contract-gap.tsx';
import { beforeToday } from '@/lib/seoul-time.ts';
import { schemaItem } from '@/components/schema-item.tsx';

const LandingItem = schemaItem(landingInput);

type TabKey = 'basics' | 'content' | 'form' | 'finish';

/** Which tab holds a field, so a failed save opens the tab with the first error. */
function tabOf(name: readonly (string | number)[]): TabKey {
  const head = String(name[0]);
  if (head === 'content') return 'content';
  if (head === 'formFields') return 'form';
  if (['privacyConsentText', 'marketingEnabled', 'marketingConsentText', 'thankYouMode', 'thankYouMessage', 'thankYouUrl'].includes(head)) return 'finish';
  return 'basics';
}

interface LandingEditorProps {
  shop: { id: number; shopCode: string };
  /** A landing id, or 'new'. */
  target: number | 'new';
  writable: boolean;
  onClose: () => void;
  /** After the first save of a new landing: continue editing it. */
  onCreated: (id: number) => void;
}

export function LandingEditor({ shop, target, writable, onClose, onCreated }: LandingEditorProps) {
  // Esc, × and 닫기 ask first while the form holds unsaved changes; those are kept as a draft meanwhile.
  const guard = useCloseGuard(onClose, { content: '작성 중인 내용은 이 브라우저에 임시 보관되어, 다시 열면 되살릴 수 있습니다.' });
  const existing = useCall(landingsApi.get, { params: { shopId: shop.id, id: target === 'new' ? 0 : target } }, { enabled: target !== 'new' });
  const landing = target === 'new' ? null : existing.data;

  let body: React.ReactNode;
  if (target !== 'new' && existing.isError) body = <Alert type="error" showIcon title={(existing.error as Error).message} />;
  else if (target !== 'new' && !landing) body = <Skeleton active paragraph={{ rows: 12 }} />;
  else body = null;

  return (
    <EditorDrawer
      onClose={guard.requestClose}
      title={
        <Space>
          {landing ? `랜딩 편집 · ${landing.title}` : target === 'new' ? '랜딩 만들기' : '랜딩 편집'}
          {landing && <Tag color={STATE_COLORS[landing.state]}>{LANDING_STATE_LABELS[landing.state]}</Tag>}
        </Space>
      }
    >
      {body ?? (
        <EditorBody key={landing?.id ?? 'new'} shop={shop} landing={landing ?? null} writable={writable} guard={guard} onClose={guard.requestClose} onCreated={onCreated} />
      )}
    </EditorDrawer>
  );
}

interface EditorBodyProps {
  shop: { id: number; shopCode: string };
  landing: Landing | null;
  writable: boolean;
  guard: CloseGuard;
  onClose: () => void;
  onCreated: (id: number) => void;
}

/** The editor's buttons: close, 종료 an open landing, save, and save and publish (warning of fields its policy does not name). */
function EditorActions({ status, busy, run, onClose, coverage }: {
  status: Landing['status'];
  busy: null | 'save' | 'publish' | 'close';
  run: (kind: 'save' | 'publish' | 'close') => Promise<void>;
  onClose: () => void;
  coverage: ReactNode;
}) {
  return (
    <Space wrap>
      <Button onClick={onClose}>닫기</Button>
      {status === 'open' && (
        <Popconfirm
          title="이 랜딩을 종료할까요?"
          description="방문자에게는 마감 안내가 보이고 더 이상 접수되지 않습니다."
          okText="종료"
          cancelText="취소"
          okButtonProps={{ danger: true }}
          onConfirm={() => run('close')}
        >
          <Button danger loading={busy === 'close'}>
            종료
          </Button>
        </Popconfirm>
      )}
      <Button type={status === 'open' ? 'primary' : 'default'} loading={busy === 'save'} disabled={!!busy} onClick={() => run('save')}>
        {status === 'draft' ? '임시 저장' : '저장'}
      </Button>
      {status !== 'open' && (
        <Popconfirm
          title={status === 'closed' ? '저장하고 다시 게시할까요?' : '저장하고 게시할까요?'}
          description={
            <div style={{ maxWidth: 360 }}>
              게시하면 공개 주소로 누구나 볼 수 있고 신청을 받습니다.
              {coverage && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={coverage} />}
            </div>
          }
          okText="게시"
          cancelText="취소"
          onConfirm={() => run('publish')}
        >
          <Button type="primary" loading={busy === 'publish'} disabled={!!busy && busy !== 'publish'}>
            {status === 'closed' ? '다시 게시' : '게시'}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

function EditorBody({ shop, landing, writable, guard, onClose, onCreated }: EditorBodyProps) {
  const [form] = Form.useForm<EditorValues>();
  const [initial] = useState<EditorValues>(() => (landing ? toEditorValues(landing) : newLandingValues()));
  const [previewValues, setPreviewValues] = useState<EditorValues>(initial);
  const [tab, setTab] = useState<TabKey>('basics');
  const [busy, setBusy] = useState<null | 'save' | 'publish' | 'close'>(null);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const media = useCodeOptions('media-type');
  const events = useCodeOptions('event-type');
  const policies = useCall(privacyPoliciesApi.options, { params: { shopId: shop.id } }, { staleTime: 30_000 });
  const accountId = useAuth().account!.id;
  // The work in progress, kept in this browser as it is typed (no lead's data is in a landing's form).
  const kept = useKeptDraft(form, writable ? draftKey('landing', accountId, shop.id, landing?.id ?? 'new') : null, landing?.updatedAt ?? null, initial);
  const tracked = useTrackChanges(guard, form);
  useDraft(form, `landing-editor|${shop.id}|${landing?.id ?? 'new'}|${landing?.updatedAt ?? ''}`, (values) => {
    setPreviewValues(values);
    tracked.markChanged();
    // What the ended session kept is the work now: no older draft is offered beside it, and this one is kept.
    kept.keep();
  });
  const restoreDraft = () => {
    const values = kept.restore() as EditorValues | undefined;
    if (!values) return;
    setPreviewValues(values);
    tracked.markChanged();
    message.info('임시 보관된 내용을 되살렸습니다. 확인 후 저장하세요.');
  };
  const code = Form.useWatch('landingCode', form) as string | undefined;
  const thankYouMode = Form.useWatch('thankYouMode', form) as EditorValues['thankYouMode'] | undefined;
  const marketingEnabled = Form.useWatch('marketingEnabled', form) as boolean | undefined;
  const coverage = usePolicyCoverage(form, policies.data?.items);


  const refresh = async (saved: Landing) => {
    queryClient.setQueryData(apiKey(landingsApi.get, { params: { shopId: shop.id, id: saved.id } }), saved);
    await invalidate(queryClient, [landingsApi.list]);
  };

  /** Validates inline, then creates or updates; an error lands on its field and opens its tab. */
  async function save(): Promise<Landing | null> {
    try {
      await form.validateFields();
    } catch (err) {
      const first = (err as { errorFields?: Array<{ name: (string | number)[] }> }).errorFields?.[0];
      if (first) setTab(tabOf(first.name));
      message.error('입력값을 확인하세요.');
      return null;
    }
    const parsed = parseInput(form.getFieldsValue(true) as EditorValues);
    if (!parsed.success) {
      message.error(parsed.error.issues[0]?.message ?? '입력값을 확인하세요.');
      return null;
    }
    try {
      const saved = landing
        ? await call(landingsApi.update, { params: { shopId: shop.id, id: landing.id }, body: parsed.data })
        : await call(landingsApi.create, { params: { shopId: shop.id }, body: parsed.data });
      await refresh(saved);
      tracked.saved();
      kept.clear();
      return saved;
    } catch (err) {
      if (err instanceof ApiError && err.fields) {
        const fields = fieldErrors(err.fields);
        form.setFields(fields as never);
        if (fields[0]) setTab(tabOf(fields[0].name));
      }
      message.error(err instanceof Error ? err.message : '저장하지 못했습니다.');
      return null;
    }
  }

  async function run(kind: 'save' | 'publish' | 'close') {
    setBusy(kind);
    try {
      if (kind === 'close') {
        const closed = await call(landingsApi.close, { params: { shopId: shop.id, id: landing!.id } });
        await refresh(closed);
        message.success('랜딩을 종료했습니다. 방문자에게는 마감 안내가 보입니다.');
        return;
      }
      const saved = await save();
      if (!saved) return;
      if (!landing) onCreated(saved.id);
      if (kind === 'publish') {
        const published = await call(landingsApi.publish, { params: { shopId: shop.id, id: saved.id } });
        await refresh(published);
        message.success('랜딩을 게시했습니다.');
        if (published.contractGap.length) warnContractGap(modal, published.contractGap);
      } else {
        message.success(saved.status === 'open' ? '저장했습니다. 게시 중인 페이지에 반영됩니다.' : '저장했습니다.');
      }
    } catch (err) {
      message.error(err instanceof Error ? err.message : '처리하지 못했습니다.');
    } finally {
      setBusy(null);
    }
  }

  const status = landing?.status ?? 'draft';
  const actions = writable && <EditorActions status={status} busy={busy} run={run} onClose={onClose} coverage={coverage} />;

  const policyOptions = (policies.data?.items ?? []).map((p) => ({
    value: p.id,
    label: `${p.version}판 (${formatDate(p.publishedAt)} 게시)${p.current ? ' · 최신' : ''}`,
  }));

  return (
    <Row gutter={[24, 16]}>
      <Col xs={24} xl={14}>
        {kept.offer && <DraftOffer draft={kept.offer} stale={kept.offer.base !== (landing?.updatedAt ?? null)} onRestore={restoreDraft} onDiscard={kept.discard} />}
        {status === 'open' && writable && (
          <Alert type="info" showIcon style={{ marginBottom: 12 }} title="게시 중인 랜딩입니다. 저장하면 방문자가 보는 페이지에 바로 반영됩니다." />
        )}
        {!writable && <Alert type="info" showIcon style={{ marginBottom: 12 }} title="조회 권한만 있어 내용을 볼 수만 있습니다." />}
        <Form<EditorValues>
          form={form}
          name="landing-editor"
          layout="vertical"
          requiredMark="optional"
          initialValues={initial}
          disabled={!writable}
          onValuesChange={() => {
            setPreviewValues(form.getFieldsValue(true) as EditorValues);
            kept.keep();
          }}
        >
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as TabKey)}
            items={[
              { key: 'basics', label: '기본 정보', forceRender: true, children: <BasicsTab form={form} landing={landing} shopCode={shop.shopCode} code={code} media={media.options} events={events.options} policies={policyOptions} policiesLoaded={!!policies.data} coverage={coverage} /> },
              { key: 'content', label: '콘텐츠', forceRender: true, children: <ContentTab form={form} shopId={shop.id} disabled={!writable} /> },
              { key: 'form', label: '신청 양식', forceRender: true, children: <FormBuilder form={form} disabled={!writable} /> },
              {
                key: 'finish', label: '동의·완료', forceRender: true,
                children: <FinishTab form={form} thankYouMode={thankYouMode ?? 'message'} marketingEnabled={!!marketingEnabled} />,
              },
            ]}
          />
        </Form>
        {actions && <div style={{ display: 'flex', justifyContent: 'flex-end', borderTop: '1px solid #f0f0f0', paddingTop: 16, marginTop: 8 }}>{actions}</div>}
      </Col>
      <Col xs={24} xl={10}>
        <div style={{ position: 'sticky', top: 0 }}>
          <LandingPreview shopId={shop.id} values={previewValues} />
        </div>
      </Col>
    </Row>
  );
}

interface Option {
  value: number;
  label: string;
}

function BasicsTab({ form, landing, shopCode, code, media, events, policies, policiesLoaded, coverage }: {
  form: FormInstance<EditorValues>; landing: Landing | null; shopCode: string; code?: string; media: Option[]; events: Option[]; policies: Option[];
  policiesLoaded: boolean; coverage: React.ReactNode;
}) {
  const locked = !!landing?.publishedAt;
  return (
    <Row gutter={16}>
      <LandingItem half label="랜딩 이름" name="title" required extra="관리 화면에서 구분하는 이름입니다.">
        <Input maxLength={60} placeholder="예: 11월 임플란트 이벤트" />
      </LandingItem>
      <LandingItem half label="랜딩 코드" name="landingCode" required extra={locked ? '게시한 적이 있는 랜딩의 코드는 바꿀 수 없습니다.' : `공개 주소: ${landingPath(shopCode, code || '랜딩코드')}`}>
        <Input maxLength={40} placeholder="nov-implant" disabled={locked} />
      </LandingItem>
      <Col xs={24} md={12}>
        <Form.Item label="매체" name="mediaTypeId">
          <Select allowClear options={media} placeholder="선택" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="이벤트 유형" name="eventTypeId">
          <Select allowClear options={events} placeholder="선택" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="게시 시작" name="openAt" extra="비우면 게시하는 즉시 열립니다.">
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} placeholder="즉시" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item label="게시 종료" name="closeAt" dependencies={['openAt']} rules={[landingRule(form, ['closeAt'])]} extra="비우면 종료할 때까지 열려 있습니다.">
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            style={{ width: '100%' }}
            placeholder="종료 시까지"
            disabledDate={beforeToday}
          />
        </Form.Item>
      </Col>
      <LandingItem half label="중복 판단 기간" name="duplicateWindowDays" extra="이 기간 안에 같은 연락처로 다시 신청하면 중복으로 표시합니다 (0일: 확인 안 함).">
        <InputNumber min={0} max={365} suffix="일" style={{ width: 160 }} />
      </LandingItem>
      <Col xs={24} md={12}>
        <Form.Item
          label="개인정보 처리방침"
          name="privacyPolicyVersionId"
          required
          extra="게시하려면 게시된 처리방침이 있어야 합니다. 버전을 고르지 않으면 항상 최신 게시 버전을 적용합니다."
        >
          <Select allowClear options={policies} placeholder="최신 게시 버전 (자동)" notFoundContent="게시된 처리방침이 없습니다." />
        </Form.Item>
      </Col>
      {policiesLoaded && policies.length === 0 && (
        <Col span={24}>
          <Alert type="warning" showIcon title="게시된 개인정보 처리방침이 없어 이 랜딩을 게시할 수 없습니다. 개인정보 처리방침 화면에서 먼저 게시하세요." />
        </Col>
      )}
      {coverage && (
        <Col span={24}>
          <Alert type="warning" showIcon title={coverage} />
        </Col>
      )}
    </Row>
  );
}

function FinishTab({ form, thankYouMode, marketingEnabled }: { form: FormInstance<EditorValues>; thankYouMode: 'message' | 'url'; marketingEnabled: boolean }) {
  return (
    <>
      <LandingItem label="개인정보 수집·이용 동의 문구" name="privacyConsentText" required extra="필수 동의 항목입니다. 이 랜딩이 받는 항목과 처리방침의 보유 기간이 함께 표시됩니다.">
        <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} maxLength={2000} />
      </LandingItem>
      <Form.Item label="마케팅 정보 수신 동의 받기" name="marketingEnabled" valuePropName="checked">
        <Switch />
      </Form.Item>
      {marketingEnabled && (
        <LandingItem label="마케팅 정보 수신 동의 문구" name="marketingConsentText" extra="선택 동의 항목으로 표시됩니다.">
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={1000} />
        </LandingItem>
      )}
      <Form.Item label="신청 완료 후" name="thankYouMode">
        <Radio.Group
          options={[
            { value: 'message', label: '완료 문구 보여주기' },
            { value: 'url', label: '다른 주소로 이동' },
          ]}
        />
      </Form.Item>
      {thankYouMode === 'url' ? (
        <Form.Item
          label="이동할 주소"
          name="thankYouUrl"
          required
          rules={[landingRule(form, ['thankYouUrl']), { required: true, message: '이동할 주소를 입력하세요.' }]}
          extra="http:// 또는 https:// 로 시작하는 주소"
        >
          <Input maxLength={500} placeholder="https://example.com/thanks" />
        </Form.Item>
      ) : (
        <LandingItem label="완료 문구" name="thankYouMessage" required>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={300} />
        </LandingItem>
      )}
    </>
  );
}
