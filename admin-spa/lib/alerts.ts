// The browser's side of counselors' alerts: the service worker (/sw.js: pushes shown while no tab
// is open, the offline page), the notification permission — asked only when the account presses
// "알림 받기" or saves its settings, never on load — this browser's Web Push subscription, and the
// notification a lead handed to the account shows while the back office is open (in a background
// tab too). Nothing here stores personal data: a notification names a count and opens DB 현황.
import { alertsApi } from '@contracts/alerts.ts';
import { call } from './api.ts';

const SW_URL = '/sw.js';
/** How long a freshly registered service worker may take to become active before a subscription gives up. */
const READY_MS = 10_000;

/** The service worker, registered once per page load (the browser keeps it; registering again is a no-op). */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register(SW_URL).catch(() => {
    // No service worker (an old browser, a private window): alerts still show while a tab is open.
  });
}

export type Permission = NotificationPermission | 'unsupported';

export const notificationPermission = (): Permission => (typeof Notification === 'undefined' ? 'unsupported' : Notification.permission);

/** Asks the browser (only from a click: browsers refuse, or remember as spam, a prompt out of nowhere). */
export async function askPermission(): Promise<Permission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

const pushSupported = () => 'serviceWorker' in navigator && typeof PushManager !== 'undefined';

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(b64);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

async function activeRegistration(): Promise<ServiceWorkerRegistration | null> {
  await navigator.serviceWorker.register(SW_URL);
  return Promise.race([navigator.serviceWorker.ready, new Promise<null>((r) => setTimeout(() => r(null), READY_MS))]);
}

/**
 * This browser's Web Push subscription, made (against the server's VAPID key) and handed to the
 * server for the account. Answers whether it is in place; a browser without a push service
 * (headless, some private windows) answers false and the open back office still alerts.
 */
export async function subscribePush(): Promise<boolean> {
  if (!pushSupported() || notificationPermission() !== 'granted') return false;
  try {
    const reg = await activeRegistration();
    if (!reg) return false;
    const { publicKey } = await call(alertsApi.vapidKey);
    let sub = await reg.pushManager.getSubscription();
    // A subscription made against another key (a restored database) cannot take this server's pushes.
    const current = sub?.options.applicationServerKey;
    if (sub && current && btoa(String.fromCharCode(...new Uint8Array(current))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') !== publicKey) {
      await sub.unsubscribe();
      sub = null;
    }
    sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    const json = sub.toJSON();
    if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) return false;
    await call(alertsApi.subscribe, { body: { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh, auth: json.keys.auth } } });
    return true;
  } catch {
    return false;
  }
}

/** Stops this browser's pushes for the account (push turned off). */
export async function unsubscribePush(): Promise<void> {
  if (!pushSupported()) return;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return;
  await call(alertsApi.unsubscribe, { query: { endpoint: sub.endpoint } }).catch(() => {});
}

/**
 * A notification of the open back office (shown over other windows, in a background tab too);
 * a click brings the tab forward and opens `path`. Silently nothing without the permission.
 */
export function showNotification(title: string, body: string, tag: string, open: () => void): void {
  if (notificationPermission() !== 'granted') return;
  try {
    const n = new Notification(title, { body, tag, lang: 'ko' });
    n.onclick = () => {
      window.focus();
      open();
      n.close();
    };
  } catch {
    // Android's Chrome takes notifications only from the service worker.
    void navigator.serviceWorker?.getRegistration().then((reg) => reg?.showNotification(title, { body, tag, lang: 'ko', data: { url: '/database-status' } }));
  }
}
