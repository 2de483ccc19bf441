// DB 등록: a lead entered by hand (a call, a visit, a paper form) or a file of leads imported —
// both checked as a landing's form is, both recording the basis on which the shop may keep
// them. The tab and the import being worked on are kept in the URL (a reload resumes it).
import { useSearchParams } from 'react-router-dom';
import { Alert, Space, Tabs } from 'antd';
import { useAuth } from '@/lib/auth.tsx';
import { useCurrentShop } from '@/lib/shop.tsx';
import { patchedSearch } from '@/lib/search-state.ts';
import { ManualForm } from './manual-form.tsx';
import { ImportPanel } from './import-panel.tsx';
import { ImportHistory } from './import-history.tsx';

export default function DataInsertion() {
  const shop = useCurrentShop();
  const { can } = useAuth();
  const writable = can('data-insertion', 'write');
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'import' || search.get('import') ? 'import' : 'manual';
  const importId = Number(search.get('import')) || null;
  const openImport = (id: number | null) => setSearch(patchedSearch(search, { tab: 'import', import: id ? String(id) : null }));

  if (!writable) {
    return (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Alert type="info" showIcon title="DB를 등록할 권한이 없어 가져오기 기록만 볼 수 있습니다." />
        <ImportHistory shopId={shop.id} writable={false} onOpen={() => {}} />
      </Space>
    );
  }

  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setSearch(k === 'import' ? { tab: 'import' } : {})}
      items={[
        { key: 'manual', label: '직접 입력', children: tab === 'manual' && <ManualForm key={shop.id} shopId={shop.id} /> },
        {
          key: 'import',
          label: '파일 가져오기',
          children: tab === 'import' && (
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <ImportPanel key={`${shop.id}|${importId ?? 'new'}`} shopId={shop.id} importId={importId} onOpen={openImport} />
              <ImportHistory shopId={shop.id} writable onOpen={openImport} />
            </Space>
          ),
        },
      ]}
    />
  );
}
