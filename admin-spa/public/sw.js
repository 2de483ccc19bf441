/* global self, caches, fetch, Request, Response, URL */
// Leadroom's service worker (scope /): shows the Web Pushes of counselors' alerts while no tab is
// open and opens the lead on a click, and answers a page load that fails because the network is
// down with /offline.html. It caches that one page and nothing else: no API answer, no screen, no
// personal data ever goes into a cache. Plain JavaScript served as is (no build step, no imports).
const OFFLINE_URL = '/offline.html';
const CACHE = 'leadroom-offline-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// Only page loads are answered here, from the network; the offline page only when it fails.
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.mode !== 'navigate' || request.method !== 'GET') return;
  event.respondWith(
    fetch(request).catch(async () => (await caches.match(OFFLINE_URL)) || Response.error()),
  );
});

/** A path of this origin to open, or DB 현황 (a push never sends the browser elsewhere). */
function pathOf(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/database-status';
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Leadroom 알림';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      lang: 'ko',
      data: { url: pathOf(data.url) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(pathOf(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
    if (open) {
      await open.focus();
      if ('navigate' in open) await open.navigate(target).catch(() => {});
      return;
    }
    await self.clients.openWindow(target);
  })());
});
