// Routes built from the screen catalogue: every screen is a lazy chunk under
// screens/<key>/index.tsx, shown with `Loading...` while it loads. The shell's and the opened
// screen's chunks are asked for as the page starts (preloadScreen), alongside the session: no
// chunk waits for another's answer, and no other screen's chunk is fetched.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { SCREENS, type Screen } from '@contracts/screens.ts';
import { RouteError } from '@/layouts/route-error.tsx';
import { Guard } from '@/layouts/guard.tsx';
import { ScreenGate } from '@/layouts/screen-gate.tsx';

const modules = import.meta.glob<{ default: ComponentType }>('./screens/*/index.tsx');

const Loading = () => <div style={{ padding: 24 }}>Loading...</div>;

function lazyScreen(folder: string): LazyExoticComponent<ComponentType> | null {
  const loader = modules[`./screens/${folder}/index.tsx`];
  return loader ? lazy(loader) : null;
}

const loadAppLayout = () => import('@/layouts/app-layout.tsx');
const AppLayout = lazy(loadAppLayout);

/** Starts loading what `pathname` shows (the shell and the screen's chunk), before the router renders. */
export function preloadScreen(pathname: string): void {
  const screen = SCREENS.find((s) => `/${s.key}` === pathname);
  if (!screen) return;
  void loadAppLayout().catch(() => {});
  void modules[`./screens/${screen.key}/index.tsx`]?.().catch(() => {});
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
