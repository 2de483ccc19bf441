// The life of a lead after DB 현황: DB 삭제 (chosen leads, or every lead the list's filters
// find, with a reason), 삭제 DB 관리 (the deleted leads with the day each will be destroyed,
// restored or destroyed now with a reason; the destruction log; the shop's grace period and
// the destructions coming in the next days) and the automatic purge behind them: a deleted
// lead is destroyed once the shop's grace period is over, and any lead once its privacy
// policy's retention period is — whichever comes first. A destroyed lead keeps its id and
// its events; its personal fields are gone for good.
import { z } from './zod.ts';
import { dayField, requiredText } from './fields.ts';
import { listEndpoint, listQuery, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { BULK_MAX, CS_STATUSES, leadFilters } from './leads.ts';

const DELETE_REASON_REQUIRED = '삭제 사유를 입력하세요.';
const RESTORE_REASON_REQUIRED = '복구 사유를 입력하세요.';
const PURGE_REASON_REQUIRED = '파기 사유를 입력하세요.';
const DELETE_TARGET_REQUIRED = '삭제할 DB를 선택하세요.';

/** Leads one deletion of "every match" takes at most: more, and the filter must be narrowed. */
export const DELETE_MATCHING_MAX = 10_000;
/** Days a deleted lead waits for its destruction when the shop set nothing. */
export const DEFAULT_GRACE_DAYS = 30;
export const GRACE_DAYS_MIN = 1;
export const GRACE_DAYS_MAX = 365;
/** Days ahead the upcoming destructions cover, today included. */
export const UPCOMING_DAYS = 30;
/** What a destroyed lead's name becomes (its phone becomes empty). */
export const PURGED_NAME = '파기됨';

export const DESTRUCTION_TRIGGERS = ['manual', 'grace', 'retention'] as const;
export type DestructionTrigger = (typeof DESTRUCTION_TRIGGERS)[number];
export const DESTRUCTION_TRIGGER_LABELS: Record<DestructionTrigger, string> = {
  manual: '즉시 파기', grace: '유예 기간 만료', retention: '보유 기간 만료',
};
/** The automatic triggers: what a deleted lead (or any lead) is waiting for. */
const AUTOMATIC_TRIGGERS = ['grace', 'retention'] as const;
export type AutomaticTrigger = (typeof AUTOMATIC_TRIGGERS)[number];

/** Chosen leads: at least one, at most BULK_MAX. */
const chosen = (required: string, verb: string) =>
  z.array(z.number().int().positive(), required).min(1, required).max(BULK_MAX, `한 번에 ${BULK_MAX}건까지 ${verb} 수 있습니다.`);

/** The list's filters and its search, as DB 삭제 shows them (query-string forms, as in the URL). */
export const leadDeleteFilter = z.object({
  ...leadFilters,
  /** A name, or phone digits. */
  q: listQuery.shape.q,
});

/** Chosen leads, or every lead the filter finds (at most DELETE_MATCHING_MAX), with the reason. */
export const leadDeleteInput = z
  .object({
    ids: z.array(z.number().int().positive(), DELETE_TARGET_REQUIRED).max(BULK_MAX, `한 번에 ${BULK_MAX}건까지 삭제할 수 있습니다.`).optional(),
    filter: leadDeleteFilter.optional(),
    reason: requiredText(200, DELETE_REASON_REQUIRED),
  })
  .superRefine((v, ctx) => {
    if (!v.ids?.length && !v.filter) ctx.addIssue({ code: 'custom', path: ['ids'], message: DELETE_TARGET_REQUIRED });
  });
export type LeadDeleteInput = z.infer<typeof leadDeleteInput>;

export const leadRestoreInput = z.object({
  ids: chosen('복구할 DB를 선택하세요.', '복구할'),
  reason: requiredText(200, RESTORE_REASON_REQUIRED),
});
export type LeadRestoreInput = z.infer<typeof leadRestoreInput>;

export const leadPurgeInput = z.object({
  ids: chosen('파기할 DB를 선택하세요.', '파기할'),
  reason: requiredText(200, PURGE_REASON_REQUIRED),
});
export type LeadPurgeInput = z.infer<typeof leadPurgeInput>;

export const deletedLeadItem = z.object({
  id: z.number(),
  createdAt: z.string(),
  name: z.string(),
  /** Always masked (010-****-5678). */
  phone: z.string(),
  landingTitle: z.string().nullable(),
  csStatus: z.enum(CS_STATUSES),
  deletedAt: z.string(),
  deletedByName: z.string().nullable(),
  reason: z.string().nullable(),
  /** When the automatic purge destroys it: deleted + the shop's grace days, or earlier when the policy's retention runs out. */
  destroyAt: z.string(),
  destroyTrigger: z.enum(AUTOMATIC_TRIGGERS),
});
export type DeletedLeadItem = z.infer<typeof deletedLeadItem>;

export const destructionItem = z.object({
  id: z.number(),
  at: z.string(),
  trigger: z.enum(DESTRUCTION_TRIGGERS),
  /** Null: the automatic purge. */
  accountName: z.string().nullable(),
  reason: z.string().nullable(),
  leadCount: z.number(),
});
export type DestructionItem = z.infer<typeof destructionItem>;

export const purgeSettings = z.object({
  graceDays: z.number(),
  updatedAt: z.string().nullable(),
});
export type PurgeSettings = z.infer<typeof purgeSettings>;

export const purgeSettingsInput = z.object({
  graceDays: z
    .number('유예 기간을 입력하세요.')
    .int('유예 기간은 일 단위 정수로 입력하세요.')
    .min(GRACE_DAYS_MIN, `유예 기간은 ${GRACE_DAYS_MIN}일 이상으로 정하세요.`)
    .max(GRACE_DAYS_MAX, `유예 기간은 ${GRACE_DAYS_MAX}일 이하로 정하세요.`),
});
export type PurgeSettingsInput = z.infer<typeof purgeSettingsInput>;

export const upcomingDestructions = z.object({
  /** Seoul days, today first, UPCOMING_DAYS of them; what is already due counts on today. */
  days: z.array(z.object({ day: z.string(), grace: z.number().int(), retention: z.number().int() })),
  totals: z.object({ grace: z.number().int(), retention: z.number().int() }),
  graceDays: z.number(),
});
export type UpcomingDestructions = z.infer<typeof upcomingDestructions>;

export const leadDeletionApi = {
  /** Deletes chosen leads, or every lead the filter finds (DB 삭제). */
  remove: endpoint({
    method: 'POST', path: '/api/shops/:shopId/leads/delete', params: shopParam, body: leadDeleteInput, response: z.object({ deleted: z.number() }),
  }),
  /** The shop's deleted leads not yet destroyed (삭제 DB 관리). */
  deleted: listEndpoint({
    path: '/api/shops/:shopId/deleted-leads',
    params: shopParam,
    item: deletedLeadItem,
    sort: ['deletedAt', 'createdAt', 'name', 'deletedByName'],
    filters: {
      /** Seoul days of the deletion, inclusive. */
      from: dayField.optional(),
      to: dayField.optional(),
      deletedBy: z.coerce.number('삭제한 사람을 목록에서 고르세요.').int().positive('삭제한 사람을 목록에서 고르세요.').optional(),
    },
    extra: { graceDays: z.number() },
  }),
  /** Who deleted the shop's deleted leads (the list's filter). */
  deleters: endpoint({
    method: 'GET', path: '/api/shops/:shopId/deleted-leads/deleters', params: shopParam,
    response: z.object({ items: z.array(z.object({ id: z.number(), name: z.string() })) }),
  }),
  restore: endpoint({
    method: 'POST', path: '/api/shops/:shopId/deleted-leads/restore', params: shopParam, body: leadRestoreInput, response: z.object({ restored: z.number() }),
  }),
  /** Destroys chosen deleted leads now. */
  purge: endpoint({
    method: 'POST', path: '/api/shops/:shopId/deleted-leads/purge', params: shopParam, body: leadPurgeInput, response: z.object({ purged: z.number() }),
  }),
  /** The destruction log: by hand and by the automatic purge. */
  destructions: listEndpoint({
    path: '/api/shops/:shopId/destructions',
    params: shopParam,
    item: destructionItem,
    sort: ['at', 'leadCount'],
    filters: {
      trigger: z.enum(DESTRUCTION_TRIGGERS, '파기 구분을 목록에서 고르세요.').optional(),
      from: dayField.optional(),
      to: dayField.optional(),
    },
  }),
  /** Leads the automatic purge will destroy in the next UPCOMING_DAYS days, per day and trigger. */
  upcoming: endpoint({ method: 'GET', path: '/api/shops/:shopId/destructions/upcoming', params: shopParam, response: upcomingDestructions }),
  settings: endpoint({ method: 'GET', path: '/api/shops/:shopId/purge-settings', params: shopParam, response: purgeSettings }),
  updateSettings: endpoint({ method: 'PUT', path: '/api/shops/:shopId/purge-settings', params: shopParam, body: purgeSettingsInput, response: purgeSettings }),
};

export type DeletedLeadQuery = QueryOf<typeof leadDeletionApi.deleted>;
export type DestructionQuery = QueryOf<typeof leadDeletionApi.destructions>;
