// antd (ko_KR, house theme) and react-query for everything behind login. Kept out of
// the entry chunk so that /bclog loads small; every antd screen renders inside it.
import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import koKR from 'antd/locale/ko_KR';
import dayjs from 'dayjs';
import 'dayjs/locale/ko';
import { queryClient } from '@/lib/query-client.ts';
import { THEME } from '@/lib/theme.ts';
import './ant-shell.css';

dayjs.locale('ko');

export function AntShell({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={koKR} theme={THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
