// The permission matrix: for one account type at a time, each screen's access
// (없음/조회/편집) plus the two personal-data rights (unmask, export). Agency-only screens are
// marked; a client type cannot be given them (the server refuses too).
import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, Empty, Radio, Segmented, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface.js';
import { SCREENS, type Screen } from '@contracts/screens.ts';
import {
  ACCESS_LEVELS, ACCESS_LEVEL_LABELS, AREA_LABELS, SIDE_LABELS, matrixForSide, sideAllows, type AccessLevel, type PermissionMatrix,
} from '@contracts/permissions.ts';
import { permissionsApi } from '@contracts/account-types.ts';
import { call } from '@/lib/api.ts';
import { invalidate, useCall } from '@/lib/use-call.ts';
import { ServerError } from '@/layouts/results.tsx';
import { useAuth } from '@/lib/auth.tsx';

interface Draft {
  permissions: PermissionMatrix;
  canUnmask: boolean;
  canExport: boolean;
}

export default function PermissionSetting() {
  const { can } = useAuth();
  const writable = can('permission-setting', 'write');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const types = useCall(permissionsApi.list);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [drafts, setDrafts] = useState<Record<number, Draft>>({});
  const [saving, setSaving] = useState(false);

  const items = useMemo(() => types.data?.items ?? [], [types.data]);
  const selected = items.find((t) => t.id === selectedId) ?? items[0];
  const draft: Draft | undefined = selected && (drafts[selected.id] ?? { permissions: selected.permissions, canUnmask: selected.canUnmask, canExport: selected.canExport });
  const locked = selected?.builtinKey === 'superadmin' || !writable;
  const dirty = !!selected && !!drafts[selected.id];

  if (types.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (types.isError) return <ServerError message={(types.error as Error).message} onRetry={() => types.refetch()} />;
  if (!selected || !draft) return <Empty description="계정 유형이 없습니다." />;

  const setDraft = (patch: Partial<Draft>) => setDrafts((d) => ({ ...d, [selected.id]: { ...draft, ...patch } }));
  const setLevel = (key: string, level: AccessLevel) => setDraft({ permissions: { ...draft.permissions, [key]: level } });
  // A client type's bulk setting stops at each screen's ceiling for its side.
  const setArea = (area: Screen['area'], level: AccessLevel) =>
    setDraft({
      permissions: matrixForSide(selected.side, { ...draft.permissions, ...Object.fromEntries(SCREENS.filter((s) => s.area === area).map((s) => [s.key, level])) }),
    });
  const beyondSide = (key: string, level: AccessLevel) => level !== 'none' && !sideAllows(selected.side, key, level);

  async function save() {
    setSaving(true);
    try {
      await call(permissionsApi.update, { params: { id: selected!.id }, body: draft! });
      setDrafts(({ [selected!.id]: _, ...rest }) => rest);
      await invalidate(queryClient, [permissionsApi.list]);
      message.success(`'${selected!.name}' 권한을 저장했습니다. 해당 계정의 다음 요청부터 적용됩니다.`);
    } catch (err) {
      message.error((err as Error).message);
    } finally {
      setSaving(false);
    }
  }

  const columns: ColumnsType<Screen> = [
    { title: '구분', dataIndex: 'group', key: 'group', width: 140, render: (v: string) => <Typography.Text type="secondary">{v}</Typography.Text> },
    {
      title: '화면', dataIndex: 'title', key: 'title',
      render: (v: string, s) => (
        <Space wrap size={4}>
          {v}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>/{s.key}</Typography.Text>
          {s.agency === 'all' && <Tooltip title="광고비·목표 CPA·CPA·마진 등 대행사의 장부입니다. 고객사 유형에는 줄 수 없습니다."><Tag color="volcano">대행사 전용</Tag></Tooltip>}
          {s.agency === 'write' && <Tooltip title="고객사 유형은 조회까지만 받을 수 있습니다."><Tag color="orange">편집은 대행사만</Tag></Tooltip>}
        </Space>
      ),
    },
    {
      title: '권한',
      key: 'level',
      width: 260,
      render: (_: unknown, s) => (
        <Radio.Group
          size="small"
          optionType="button"
          buttonStyle="solid"
          disabled={locked}
          value={draft.permissions[s.key] ?? 'none'}
          onChange={(e) => setLevel(s.key, e.target.value as AccessLevel)}
          options={ACCESS_LEVELS.map((l) => ({ value: l, label: ACCESS_LEVEL_LABELS[l], disabled: beyondSide(s.key, l) }))}
          aria-label={`${s.title} 권한`}
        />
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card variant="borderless">
        <Space wrap size={16} style={{ width: '100%', justifyContent: 'space-between' }}>
          <Segmented
            value={selected.id}
            onChange={(v) => setSelectedId(Number(v))}
            options={items.map((t) => ({ value: t.id, label: `${t.name}${drafts[t.id] ? ' •' : ''}` }))}
          />
          <Space>
            <Button disabled={!dirty} onClick={() => setDrafts(({ [selected.id]: _, ...rest }) => rest)}>
              되돌리기
            </Button>
            <Button type="primary" disabled={locked || !dirty} loading={saving} onClick={save}>
              저장
            </Button>
          </Space>
        </Space>
        <div style={{ marginTop: 16, display: 'flex', gap: 24, flexWrap: 'wrap', alignItems: 'center' }}>
          <Space size={4}>
            <Tag color={selected.area === 'admin' ? 'blue' : 'geekblue'}>{AREA_LABELS[selected.area]}</Tag>
            <Tag color={selected.side === 'agency' ? 'purple' : 'green'}>{SIDE_LABELS[selected.side]}</Tag>
          </Space>
          <Checkbox disabled={locked} checked={draft.canUnmask} onChange={(e) => setDraft({ canUnmask: e.target.checked })}>
            개인정보 마스킹 해제 (전화번호 전체 보기, 기록됨)
          </Checkbox>
          <Checkbox disabled={locked} checked={draft.canExport} onChange={(e) => setDraft({ canExport: e.target.checked })}>
            개인정보 다운로드 (사유 입력, 기록됨)
          </Checkbox>
        </div>
        {selected.side === 'client' && (
          <Alert
            style={{ marginTop: 16 }}
            type="info"
            showIcon
            title="고객사 유형입니다. '대행사 전용' 화면과 '편집은 대행사만' 화면의 편집 권한은 줄 수 없습니다."
            description="광고비, 목표 CPA, CPA, 마진은 대행사의 수치라 고객사 계정에는 저장된 권한과 관계없이 보내지 않습니다. 구분은 계정 유형 화면에서 바꿉니다."
          />
        )}
        {selected.builtinKey === 'superadmin' && (
          <Alert style={{ marginTop: 16 }} type="info" showIcon title="최고관리자는 항상 모든 권한을 가지며 바꿀 수 없습니다." />
        )}
      </Card>
      {(['admin', 'shop'] as const).map((area) => (
        <Card
          key={area}
          variant="borderless"
          title={AREA_LABELS[area]}
          extra={
            !locked && (
              <Space size={4}>
                <Typography.Text type="secondary">일괄:</Typography.Text>
                {ACCESS_LEVELS.map((l) => (
                  <Button key={l} size="small" onClick={() => setArea(area, l)} disabled={area === 'admin' && selected.area === 'shop' && l !== 'none'}>
                    {ACCESS_LEVEL_LABELS[l]}
                  </Button>
                ))}
              </Space>
            )
          }
        >
          {area === 'admin' && selected.area === 'shop' ? (
            <Typography.Text type="secondary">업체 영역 유형은 관리자 화면을 사용할 수 없습니다.</Typography.Text>
          ) : (
            <Table<Screen> rowKey="key" size="small" pagination={false} columns={columns} dataSource={SCREENS.filter((s) => s.area === area)} />
          )}
        </Card>
      ))}
    </Space>
  );
}
