// Delivery in this process: the delivery module's worker, writing its `deliver` events through
// the leads module (the only writer of leads' access records). build() starts one unless
// WORKER=0; `npm run worker` runs it on its own.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from '../lib/clock.ts';
import { deliveryWorker as sendingWorker, type DeliveryWorker, type DeliveryWorkerOptions } from '../modules/delivery/delivery.entry.ts';
import { recordLeadEvents } from '../modules/leads/leads.entry.ts';

export function deliveryWorker(db: Kysely<Database>, clock: Clock, o: Omit<DeliveryWorkerOptions, 'recordEvents'> = {}): DeliveryWorker {
  return sendingWorker(db, clock, { ...o, recordEvents: recordLeadEvents });
}
