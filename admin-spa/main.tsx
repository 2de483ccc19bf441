import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { preloadScreen, router } from './router.tsx';
import { AuthProvider } from '@/lib/auth.tsx';
import { installChunkReload } from '@/lib/chunk-reload.ts';
import { startSession } from '@/lib/session.ts';
import { startPrefetch } from '@/lib/prefetch.ts';

// The session, the chunks of the shell and of the screen opened, and the data this address asked
// for on its last load in this tab are asked for before anything renders, side by side; the page
// renders once the chunks are in, so it never shows their fallback.
// zod compiles its object parsers with `new Function` where eval is allowed, and probes for it as
// its first schema is built. The back office's CSP forbids eval, so the probe only failed — and
// every load reported a CSP violation. jitless: no probe; the schemas parse as they would anyway.
// Set before any chunk loads: zod is not in the entry, and reads its config from this global.
(globalThis as { __zod_globalConfig?: object }).__zod_globalConfig = { jitless: true };
startSession();
startPrefetch();
const chunks = preloadScreen(window.location.pathname);
installChunkReload();

void chunks.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </StrictMode>,
  ),
);
