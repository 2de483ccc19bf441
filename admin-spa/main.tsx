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
