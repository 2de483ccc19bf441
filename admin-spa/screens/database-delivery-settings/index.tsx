// DB 전송 설정: how the current shop receives its leads — delivery channels (webhook, e-mail,
// SMS / 알림톡) and the pull API's keys. Each tab keeps its place in the URL.
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Skeleton, Tabs } from 'antd';
import { ChannelsTab } from './channels-tab.tsx';

// The API keys tab is a chunk of its own: most visits are to the channels.
const ApiKeysTab = lazy(() => import('./api-keys-tab.tsx'));

const TABS = ['channels', 'api-keys'] as const;
type Tab = (typeof TABS)[number];

export default function DatabaseDeliverySettings() {
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') as Tab | null;
  const tab: Tab = asked && TABS.includes(asked) ? asked : 'channels';
  return (
    <Tabs
      activeKey={tab}
      onChange={(k) => setSearch(k === 'channels' ? {} : { tab: k })}
      items={[
        { key: 'channels', label: '전송 채널', children: tab === 'channels' && <ChannelsTab /> },
        {
          key: 'api-keys',
          label: 'API 키',
          children: tab === 'api-keys' && (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
              <ApiKeysTab />
            </Suspense>
          ),
        },
      ]}
    />
  );
}
