// DB 전송 설정: how the current shop receives its leads — delivery channels (webhook, e-mail,
// SMS / 알림톡) and the pull API's keys. Each tab keeps its place in the URL.
import { lazy, Suspense } from 'react';
import { Skeleton } from 'antd';
import { UrlTabs } from '@/components/url-tabs.tsx';
import { ChannelsTab } from './channels-tab.tsx';

// The API keys tab is a chunk of its own: most visits are to the channels.
const ApiKeysTab = lazy(() => import('./api-keys-tab.tsx'));

export default function DatabaseDeliverySettings() {
  return (
    <UrlTabs
      tabs={[
        { key: 'channels', label: '전송 채널', render: () => <ChannelsTab /> },
        {
          key: 'api-keys',
          label: 'API 키',
          render: () => (
            <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
              <ApiKeysTab />
            </Suspense>
          ),
        },
      ]}
    />
  );
}
