// Tabs whose active tab is kept in the URL (?tab=…; the first tab has none), so a reload or a
// shared link opens the same tab. Only the active tab is rendered: a tab's queries run when it opens.
import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { useTab } from '@/lib/search-state.ts';

export interface UrlTab<K extends string> {
  key: K;
  label: string;
  render: () => ReactNode;
}

export function UrlTabs<K extends string>({ tabs }: { tabs: readonly [UrlTab<K>, ...UrlTab<K>[]] }) {
  const keys = tabs.map((t) => t.key) as [K, ...K[]];
  const [tab, setTab] = useTab(keys);
  return <Tabs activeKey={tab} onChange={setTab} items={tabs.map((t) => ({ key: t.key, label: t.label, children: tab === t.key && t.render() }))} />;
}
