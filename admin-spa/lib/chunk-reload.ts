// A failed chunk load (a deploy replaced the hashed files) reloads the page once
// instead of leaving a blank screen; a second failure within a minute is left to the error page.
const KEY = 'chunkReloadAt';

export function installChunkReload(): void {
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(KEY) ?? 0);
    if (Date.now() - last < 60_000) return;
    event.preventDefault();
    sessionStorage.setItem(KEY, String(Date.now()));
    window.location.reload();
  });
}
