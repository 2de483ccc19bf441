// antd (ko_KR, house theme) and react-query for everything behind login. Kept out of
// the entry chunk so that /bclog loads small; every antd screen renders inside it.
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import koKR from 'antd/locale/ko_KR';
import dayjs from 'dayjs';
import 'dayjs/locale/ko';
import { queryClient } from '@/lib/query-client.ts';

dayjs.locale('ko');

const THEME = { token: { colorPrimary: '#1677ff', fontSize: 14, controlHeight: 32, borderRadius: 6 } };

export function AntShell({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={koKR} theme={THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
