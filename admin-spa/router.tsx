// Routes built from the screen catalogue: every screen is a lazy chunk under
// screens/<key>/index.tsx, shown with `Loading...` while it loads. The shell's and the opened
// screen's chunks are asked for as the page starts (preloadScreen), alongside the session: no
// chunk waits for another's answer, and no other screen's chunk is fetched. The page renders once
// they are in (main.tsx), so neither suspends (preloadable.ts says why that matters).
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { SCREENS, type Screen } from '@contracts/screens.ts';
import { preloadable, type Preloadable } from '@/lib/preloadable.ts';
import { RouteError } from '@/layouts/route-error.tsx';
import { Guard } from '@/layouts/guard.tsx';
import { ScreenGate } from '@/layouts/screen-gate.tsx';

const modules = import.meta.glob<{ default: ComponentType }>('./screens/*/index.tsx');

const Loading = () => <div style={{ padding: 24 }}>Loading...</div>;

/** Each screen folder's chunk, loaded on demand or preloaded. */
const screens = new Map<string, Preloadable<ComponentType>>(
  Object.entries(modules).map(([file, load]) => [/^\.\/screens\/([^/]+)\//.exec(file)![1]!, preloadable(load)]),
);

function lazyScreen(folder: string): LazyExoticComponent<ComponentType> | null {
  return screens.get(folder)?.Component ?? null;
}

const appLayout = preloadable(() => import('@/layouts/app-layout.tsx'));
const AppLayout = appLayout.Component;

/**
 * Starts loading what `pathname` shows (the shell and the screen's chunk), before the router
 * renders; resolves once both are in or one failed (the route then shows it as it would).
 */
export function preloadScreen(pathname: string): Promise<unknown> {
  if (pathname === '/bclog') return Promise.allSettled([screens.get('bclog')?.preload()]);
  const screen = SCREENS.find((s) => `/${s.key}` === pathname);
  if (!screen) return Promise.resolve();
  return Promise.allSettled([appLayout.preload(), screens.get(screen.key)?.preload()]);
}
const Login = lazyScreen('bclog')!;
const NotFound = lazy(() => import('@/layouts/results.tsx').then((m) => ({ default: m.NotFound })));

function screenRoute(screen: Screen): RouteObject {
  const Component = lazyScreen(screen.key);
  return {
    path: screen.key,
    element: (
      <ScreenGate screen={screen}>
        {/* Every catalogue screen has its folder (screen-folders.test.ts). */}
        <Suspense fallback={<Loading />}>{Component ? <Component /> : <NotFound />}</Suspense>
      </ScreenGate>
    ),
  };
}

function areaRoutes(area: 'admin' | 'shop'): RouteObject {
  return {
    element: (
      <Guard>
        <Suspense fallback={<Loading />}>
          <AppLayout area={area} />
        </Suspense>
      </Guard>
    ),
    children: SCREENS.filter((s) => s.area === area).map(screenRoute),
  };
}

const routes: RouteObject[] = [
  {
    path: '/',
    errorElement: <RouteError />,
    children: [
      { index: true, element: null },
      {
        path: 'bclog',
        element: (
          <Suspense fallback={<Loading />}>
            <Login />
          </Suspense>
        ),
      },
      areaRoutes('admin'),
      areaRoutes('shop'),
      {
        path: '*',
        element: (
          <Suspense fallback={<Loading />}>
            <NotFound />
          </Suspense>
        ),
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
