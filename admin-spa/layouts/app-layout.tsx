// The admin and shop shells: side menu from the screen catalogue (filtered by the
// account's permissions), header with area switch, current-shop selector and account menu.
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Badge, Button, Dropdown, Layout, Menu, Result, Select, Space, Spin, Typography, theme, type MenuProps } from 'antd';
import { BellOutlined, KeyOutlined, LogoutOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { SCREENS, type Area } from '@contracts/screens.ts';
import { useQuery } from '@tanstack/react-query';
import { authApi, type MyShop } from '@contracts/auth.ts';
import { useAuth } from '@/lib/auth.tsx';
import { call } from '@/lib/api.ts';
import { apiKey } from '@/lib/use-call.ts';
import { useBackgroundRefresh } from '@/lib/query-client.ts';
import { takeFirstSession } from '@/lib/session.ts';
import { CURRENT_SHOP_KEY, ShopProvider } from '@/lib/shop.tsx';
import { ICONS } from '@/lib/icons.ts';
import { AntShell } from './ant-shell.tsx';
import { PasswordChangeModal, PasswordChangeRequired } from './password-change.tsx';
import { LeadSoundToggle, useLeadSound, useLeadStream } from '@/lib/lead-stream.tsx';
import { NoticeArea } from '@/components/notice-banner.tsx';
import { AlertSettingsModal, AllowAlertsButton, useAlertSettings } from './alert-settings.tsx';
import { registerServiceWorker, unsubscribePush } from '@/lib/alerts.ts';
import { usePhone } from '@/lib/use-phone.ts';

const { Header, Sider, Content } = Layout;

/** The side menu; `badges` puts a count beside a screen's entry (new leads beside DB 현황). */
function menuItems(area: Area, can: (key: string) => boolean, badges: Record<string, number> = {}): MenuProps['items'] {
  const groups = new Map<string, NonNullable<MenuProps['items']>>();
  for (const s of SCREENS) {
    if (s.area !== area || !can(s.key)) continue;
    const Icon = ICONS[s.icon];
    const list = groups.get(s.group) ?? [];
    const badge = badges[s.key] ?? 0;
    list.push({
      key: `/${s.key}`,
      icon: Icon ? <Icon /> : null,
      // The badge is part of the link: a click on it opens the screen too.
      label: (
        <Link to={`/${s.key}`}>
          {s.title}
          {badge > 0 && <Badge count={badge} size="small" overflowCount={99} title={`새 DB ${badge}건`} style={{ marginInlineStart: 6 }} />}
        </Link>
      ),
    });
    groups.set(s.group, list);
  }
  return [...groups].map(([group, children]) => ({ type: 'group' as const, key: group, label: group, children }));
}

/**
 * The session (account and shops) in one request, refreshed on focus and every minute: the answer
 * asked as the page started (lib/session.ts) is the first, so a load waits for no chain.
 */
function useSession() {
  return useQuery({
    queryKey: apiKey(authApi.session),
    queryFn: async () => (await takeFirstSession()) ?? call(authApi.session),
    refetchOnWindowFocus: true,
  });
}

function ShopArea({ children }: { children: (shop: MyShop, selector: React.ReactNode, badges: Record<string, number>) => React.ReactNode }) {
  const session = useSession();
  const [currentId, setCurrentId] = useState<number | null>(() => Number(sessionStorage.getItem(CURRENT_SHOP_KEY)) || null);
  const items = session.data?.shops ?? [];
  // A stored shop that is no longer permitted falls back to the first permitted one.
  const current = items.find((s) => s.id === currentId) ?? items[0];
  // New leads reach every shop screen as they arrive, for accounts that may see leads.
  const { can } = useAuth();
  const leadReader = can('database-status');
  const phone = usePhone();
  const [sound, setSound] = useLeadSound();
  const alerts = useAlertSettings();
  const { fresh, seen } = useLeadStream(current?.id ?? 0, !!current && leadReader, sound, alerts.notify);
  // The badge counts what arrived since DB 현황 was last open.
  const onList = useLocation().pathname === '/database-status';
  useEffect(() => {
    if (onList && fresh) seen();
  }, [onList, fresh, seen]);

  if (session.isLoading) return <Spin style={{ display: 'block', margin: 48 }} />;
  if (!current) {
    return <Result status="warning" title="접근할 수 있는 업체가 없습니다" subTitle="관리자에게 업체 접근 권한을 요청하세요." />;
  }
  const selector = (
    <Space size={4}>
      <Select
        aria-label="현재 업체"
        showSearch={{ optionFilterProp: 'label' }}
        value={current.id}
        style={phone ? { width: 128 } : { minWidth: 220 }}
        options={items.map((s) => ({ value: s.id, label: s.status === 'active' ? s.name : `${s.name} (사용 중지)` }))}
        onChange={(id: number) => {
          sessionStorage.setItem(CURRENT_SHOP_KEY, String(id));
          setCurrentId(id);
        }}
      />
      {leadReader && <LeadSoundToggle on={sound} onChange={setSound} />}
      {leadReader && alerts.settings?.enabled && (alerts.settings.browser || alerts.settings.push) && <AllowAlertsButton pushWanted={alerts.settings.push} />}
    </Space>
  );
  return <>{children(current, selector, { 'database-status': onList ? 0 : fresh })}</>;
}

export default function AppLayoutInShell({ area }: { area: Area }) {
  return (
    <AntShell>
      <AppLayout area={area} />
    </AntShell>
  );
}

/**
 * Keeps the stored account in step with the server: a permission changed by an administrator
 * shows in the menu on the next focus or minute, not only at the next login.
 */
function useAccountRefresh() {
  const { account, signIn } = useAuth();
  const session = useSession();
  useBackgroundRefresh(authApi.session);
  const fresh = session.data?.account;
  useEffect(() => {
    if (!fresh || !account) return;
    // lastLoginAt stays as login reported it (the previous login, shown to the user).
    const next = { ...fresh, lastLoginAt: account.lastLoginAt };
    if (JSON.stringify(next) !== JSON.stringify(account)) signIn(next);
  }, [fresh, account, signIn]);
}

function AppLayout({ area }: { area: Area }) {
  useAccountRefresh();
  const { account, can, signOut } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { token } = theme.useToken();
  const screen = SCREENS.find((s) => `/${s.key}` === pathname);
  const otherArea: Area = area === 'admin' ? 'shop' : 'admin';
  const otherHome = SCREENS.find((s) => s.area === otherArea && can(s.key));
  const [changingPassword, setChangingPassword] = useState(false);
  const [alertSettings, setAlertSettings] = useState(false);
  // On a phone the header keeps to the screen: the menu's trigger at its start, buttons as icons.
  const phone = usePhone();

  useEffect(() => {
    document.title = screen ? `${screen.title} · Leadroom` : 'Leadroom';
  }, [screen]);
  // Pushes shown with no tab open, and the offline page; registering asks for no permission.
  useEffect(registerServiceWorker, []);

  const accountMenu: MenuProps = {
    items: [
      { key: 'type', label: `${account!.accountTypeName} · ${account!.loginId}`, disabled: true },
      { type: 'divider' },
      { key: 'alerts', icon: <BellOutlined />, label: '알림 설정' },
      { key: 'password', icon: <KeyOutlined />, label: '비밀번호 변경' },
      { key: 'logout', icon: <LogoutOutlined />, label: '로그아웃' },
    ],
    onClick: async ({ key }) => {
      if (key === 'alerts') setAlertSettings(true);
      if (key === 'password') setChangingPassword(true);
      if (key === 'logout') {
        // This browser stops taking the account's pushes (a shared computer's next user must not see them).
        await unsubscribePush().catch(() => {});
        await signOut();
      }
    },
  };

  if (account!.mustChangePassword) return <PasswordChangeRequired account={account!} />;

  const shell = (selector: React.ReactNode, body: React.ReactNode, badges?: Record<string, number>) => (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider
        width={220}
        theme="light"
        breakpoint="lg"
        collapsedWidth={0}
        zeroWidthTriggerStyle={phone ? { top: 12 } : undefined}
        style={{ borderRight: `1px solid ${token.colorSplit}` }}
      >
        <div style={{ height: 56, display: 'flex', alignItems: 'center', padding: '0 20px', fontWeight: 700, fontSize: 18 }}>
          <Link to={account!.home} style={{ color: token.colorPrimary }}>
            Leadroom
          </Link>
          <Typography.Text type="secondary" style={{ marginLeft: 8, fontSize: 12 }}>
            {area === 'admin' ? '관리자' : '업체'}
          </Typography.Text>
        </div>
        <nav aria-label="주 메뉴">
          <Menu mode="inline" selectedKeys={[pathname]} items={menuItems(area, can, badges)} style={{ borderInlineEnd: 'none' }} />
        </nav>
      </Sider>
      <Layout>
        <Header
          style={{
            background: token.colorBgContainer,
            padding: phone ? '0 8px 0 52px' : '0 24px',
            display: 'flex',
            alignItems: 'center',
            gap: phone ? 4 : 16,
            borderBottom: `1px solid ${token.colorSplit}`,
          }}
        >
          {/* The screen's one h1, at the size of a section title. */}
          <Typography.Title
            level={1}
            ellipsis={phone}
            style={{ margin: 0, flex: 1, minWidth: 0, fontSize: phone ? token.fontSizeHeading5 : token.fontSizeHeading4, lineHeight: token.lineHeightHeading4 }}
          >
            {screen?.title}
          </Typography.Title>
          {selector}
          {otherHome && (
            <Button icon={<SwapOutlined />} onClick={() => navigate(`/${otherHome.key}`)} aria-label={otherArea === 'admin' ? '관리자 영역' : '업체 영역'}>
              {!phone && (otherArea === 'admin' ? '관리자 영역' : '업체 영역')}
            </Button>
          )}
          <Dropdown menu={accountMenu} trigger={['click']}>
            <Button type="text" icon={<UserOutlined />} aria-label={phone ? `${account!.name} 계정 메뉴` : undefined}>
              {!phone && <Space>{account!.name}</Space>}
            </Button>
          </Dropdown>
        </Header>
        <Content style={{ margin: phone ? 12 : 24, minWidth: 0 }}>
          <NoticeArea>
            <Suspense fallback={<div>Loading...</div>}>{body}</Suspense>
          </NoticeArea>
        </Content>
        <PasswordChangeModal open={changingPassword} onClose={() => setChangingPassword(false)} />
        {alertSettings && <AlertSettingsModal open onClose={() => setAlertSettings(false)} />}
      </Layout>
    </Layout>
  );

  if (area === 'shop') {
    return (
      <ShopArea>
        {(shop, selector, badges) =>
          shell(
            selector,
            <ShopProvider shop={shop}>
              <Outlet key={shop.id} />
            </ShopProvider>,
            badges,
          )
        }
      </ShopArea>
    );
  }
  return shell(null, <Outlet />);
}
