// The lead feed: every change to leads (intake's batches, the lead screens' edits) announced
// once, heard by every open lead stream of the shop in every process (db/notify.ts).
import type { Notifier } from '../../db/notify.ts';
import { MAX_PAYLOAD } from '../../db/notify.ts';
import type { LeadChange } from '../../../contracts/leads.ts';

const CHANNEL = 'leads';
/** Leads per message: their ids and assignees stay well inside a notification's payload. */
const PER_MESSAGE = Math.floor(MAX_PAYLOAD / 60);

export interface LeadFeed {
  publish(change: LeadChange): Promise<void>;
  watch(shopId: number, fn: (change: LeadChange) => void): () => void;
  /** Every shop's changes (the administrators' dashboard). */
  watchAll(fn: (change: LeadChange) => void): () => void;
  /** Resolves once this process hears the feed. */
  ready(): Promise<void>;
}

export function leadFeed(notifier: Notifier, log: (err: unknown) => void): LeadFeed {
  const watchers = new Map<number, Set<(change: LeadChange) => void>>();
  const everyShop = new Set<(change: LeadChange) => void>();
  notifier.subscribe(CHANNEL, (payload) => {
    let change: LeadChange;
    try {
      change = JSON.parse(payload) as LeadChange;
    } catch (err) {
      return log(err);
    }
    for (const fn of watchers.get(change.shopId) ?? []) fn(change);
    for (const fn of everyShop) fn(change);
  });
  return {
    async publish(change) {
      for (let i = 0; i < change.leads.length; i += PER_MESSAGE) {
        await notifier.publish(CHANNEL, JSON.stringify({ ...change, leads: change.leads.slice(i, i + PER_MESSAGE) }));
      }
    },
    watch(shopId, fn) {
      const set = watchers.get(shopId) ?? new Set();
      set.add(fn);
      watchers.set(shopId, set);
      return () => {
        set.delete(fn);
        if (!set.size) watchers.delete(shopId);
      };
    },
    watchAll(fn) {
      everyShop.add(fn);
      return () => void everyShop.delete(fn);
    },
    ready: () => notifier.ready(CHANNEL),
  };
}
