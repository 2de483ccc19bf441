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
import 'antd/dist/antd.css';
import './ant-shell.css';

dayjs.locale('ko');

/**
 * Who asks their system for less motion gets none (WCAG 2.3.3): dialogs and drawers appear at once
 * instead of zooming and sliding. The browser tests ask for it too: a click on a dialog's button while
 * it was still zooming in could land beside it on a loaded machine.
 */
const reduceMotion = typeof window !== 'undefined' && !!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
/**
 * No component styles generated at run time (zeroRuntime): antd's own stylesheet (imported above) holds
 * them, and the theme's tokens reach it as CSS variables, still set at run time. Generating the styles took
 * a fifth of the main thread before a screen's first content (a profile of 광고 현황's reload).
 */
const SHELL_THEME = { ...THEME, zeroRuntime: true, ...(reduceMotion ? { token: { ...THEME.token, motion: false } } : {}) };

export function AntShell({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={koKR} theme={SHELL_THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
