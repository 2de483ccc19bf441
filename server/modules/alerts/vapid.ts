// The server's VAPID key pair (RFC 8292): made once, by the first process to need it, and kept in
// the database (shared_settings 'vapid-keys'), so every process signs with the same key and the
// browsers' subscriptions — made against its public key — outlive restarts and new processes.
// A new key pair would orphan every subscription: it is never regenerated.
import webpush from 'web-push';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sharedSettings } from '../../db/shared-settings.ts';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (what PushManager.subscribe's applicationServerKey takes). */
  publicKey: string;
  /** base64url of the private scalar. */
  privateKey: string;
}

const KEY = 'vapid-keys';
const cache = new WeakMap<Kysely<Database>, Promise<VapidKeys>>();

/** The key pair of this database: read, or made and claimed (a process starting at the same moment may win: its pair is taken). */
export function vapidKeys(db: Kysely<Database>, now: () => Date): Promise<VapidKeys> {
  let keys = cache.get(db);
  if (!keys) {
    keys = (async () => {
      const store = sharedSettings(db, KEY);
      const found = await store.read();
      if (found) return JSON.parse(found.value) as VapidKeys;
      const made = webpush.generateVAPIDKeys();
      const kept = await store.claim({ value: JSON.stringify({ publicKey: made.publicKey, privateKey: made.privateKey }), source: 'generated' }, now());
      return JSON.parse(kept.value) as VapidKeys;
    })();
    // A failed read is tried again on the next call.
    keys.catch(() => cache.delete(db));
    cache.set(db, keys);
  }
  return keys;
}

/** VAPID's `sub`: a mailto: of the product's sender address (MAIL_FROM), as push services ask for a contact. */
export function vapidSubject(mailFrom: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  return `mailto:${/^[^\s@]+@[^\s@]+$/.test(address) ? address : 'no-reply@leadroom.local'}`;
}
