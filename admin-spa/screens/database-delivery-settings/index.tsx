// DB 전송 설정: how the current shop receives its leads — delivery channels (webhook, e-mail,
// SMS / 알림톡) and the pull API's keys. Each tab keeps its place in the URL.
import { lazy, Suspense } from 'react';
import { Skeleton, Tabs } from 'antd';
import { ChannelsTab } from './channels-tab.tsx';
import { useTab } from '@/lib/search-state.ts';

// The API keys tab is a chunk of its own: most visits are to the channels.
const ApiKeysTab = lazy(() => import('./api-keys-tab.tsx'));

const TABS = ['channels', 'api-keys'] as const;

export default function DatabaseDeliverySettings() {
  const [tab, setTab] = useTab(TABS);
  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
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
