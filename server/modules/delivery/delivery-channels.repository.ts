// DB 전송 설정's SQL: a shop's delivery channels, with what their jobs are doing (pending and
// failed counts, the last attempt) for the list, and the cancelling of pending jobs when a
// channel is turned off.
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Database, DeliveryChannelsTable } from '../../db/schema.ts';
import { paginate } from '../../db/paging.ts';
import type { DeliveryChannelListQuery } from '../../../contracts/delivery-channels.ts';

export type DeliveryChannelRow = Selectable<DeliveryChannelsTable>;
export type NewDeliveryChannel = Insertable<DeliveryChannelsTable>;
export type DeliveryChannelChange = Updateable<DeliveryChannelsTable>;

/** What the list shows beside a channel's own columns. */
export interface ChannelActivity {
  pending: number;
  failed: number;
  last: { at: string; status: 'succeeded' | 'failed'; responseCode: number | null } | null;
}

export function deliveryChannelsRepository(db: Kysely<Database>) {
  return {
    list(shopId: number, q: DeliveryChannelListQuery) {
      return paginate(db.selectFrom('delivery_channels as c').selectAll('c').where('c.shop_id', '=', shopId), q, {
        search: ['c.name'],
        equals: { 'c.kind': q.kind },
        sortable: { name: 'c.name', createdAt: 'c.created_at', kind: 'c.kind' },
        defaultSort: { column: 'c.created_at' },
        tieBreaker: 'c.id',
      });
    },

    find: (shopId: number, id: number) =>
      db.selectFrom('delivery_channels').selectAll().where('shop_id', '=', shopId).where('id', '=', id).executeTakeFirst(),

    insert: (row: NewDeliveryChannel) => db.insertInto('delivery_channels').values(row).returning('id').executeTakeFirstOrThrow(),

    update: (id: number, change: DeliveryChannelChange) => db.updateTable('delivery_channels').set(change).where('id', '=', id).execute(),

    remove: (id: number) => db.deleteFrom('delivery_channels').where('id', '=', id).execute(),

    /** Pending and failed job counts and the last attempt of each channel. */
    async activity(shopId: number, channelIds: number[]): Promise<Map<number, ChannelActivity>> {
      const out = new Map<number, ChannelActivity>(channelIds.map((id) => [id, { pending: 0, failed: 0, last: null }]));
      if (channelIds.length === 0) return out;
      const [counts, lasts] = await Promise.all([
        db
          .selectFrom('delivery_jobs')
          .select(['channel_id', 'status', sql<number>`count(*)`.as('n')])
          .where('channel_id', 'in', channelIds)
          .where('status', 'in', ['pending', 'sending', 'failed'])
          .groupBy(['channel_id', 'status'])
          .execute(),
        db
          .selectFrom('delivery_attempts as a')
          .select(['a.channel_id', 'a.at', 'a.status', 'a.response_code'])
          .where('a.id', 'in', (eb) =>
            eb
              .selectFrom('delivery_attempts')
              .select((e) => e.fn.max('id').as('id'))
              .where('shop_id', '=', shopId)
              .where('channel_id', 'in', channelIds)
              .groupBy('channel_id'),
          )
          .execute(),
      ]);
      for (const c of counts) {
        const a = out.get(c.channel_id)!;
        if (c.status === 'failed') a.failed += Number(c.n);
        else a.pending += Number(c.n);
      }
      for (const l of lasts) out.get(l.channel_id)!.last = { at: l.at, status: l.status, responseCode: l.response_code };
      return out;
    },

    /** Jobs that were (or are to be) real deliveries — intake or manual, not test sends. */
    async deliveryJobCount(channelId: number): Promise<number> {
      const row = await db
        .selectFrom('delivery_jobs')
        .select(sql<number>`count(*)`.as('n'))
        .where('channel_id', '=', channelId)
        .where('trigger', '!=', 'test')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    /** A channel's test sends go with it (they delivered no lead of the shop's). */
    async removeTestJobs(channelId: number): Promise<void> {
      const jobs = db.selectFrom('delivery_jobs').select('id').where('channel_id', '=', channelId).where('trigger', '=', 'test');
      await db.deleteFrom('delivery_attempts').where('job_id', 'in', jobs).execute();
      await db.deleteFrom('delivery_jobs').where('channel_id', '=', channelId).where('trigger', '=', 'test').execute();
    },

    /** Cancels the channel's jobs still waiting (a job a worker holds finishes its attempt); answers how many. */
    async cancelPending(channelId: number, reason: string, now: string): Promise<number> {
      const r = await db
        .updateTable('delivery_jobs')
        .set({ status: 'cancelled', last_error: reason, updated_at: now })
        .where('channel_id', '=', channelId)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    /** Moves the channel's waiting, not yet tried jobs to a new first send time (its mode or digest time changed). */
    reschedulePending: (channelId: number, at: string, now: string) =>
      db
        .updateTable('delivery_jobs')
        .set({ next_attempt_at: at, updated_at: now })
        .where('channel_id', '=', channelId)
        .where('status', '=', 'pending')
        .where('attempts', '=', 0)
        .execute(),

    shop: (shopId: number) => db.selectFrom('shops').select(['id', 'shop_code', 'name']).where('id', '=', shopId).executeTakeFirst(),

    landings: (shopId: number) =>
      db
        .selectFrom('landings')
        .select(['id', 'title', 'landing_code'])
        .where('shop_id', '=', shopId)
        .orderBy('title')
        .orderBy('id')
        .execute(),
  };
}
