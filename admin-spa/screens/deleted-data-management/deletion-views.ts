import { leadsApi } from '@contracts/leads.ts';
import { leadDeletionApi } from '@contracts/lead-deletion.ts';

/** What a restore or a destruction changes: the deleted list and log, the coming destructions, and every view of leads. */
export const DELETION_VIEWS = [
  leadDeletionApi.deleted, leadDeletionApi.deleters, leadDeletionApi.destructions, leadDeletionApi.upcoming, leadsApi.list, leadsApi.get,
];
