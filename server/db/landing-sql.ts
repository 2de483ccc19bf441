// SQL fragments more than one repository needs.
import { sql } from 'kysely';

/** The privacy policy visitors of landing `l` consent to: the pinned version, else the shop's latest published one. */
export const effectivePolicyId = sql<number | null>`coalesce(l.privacy_policy_version_id, (
  select p.id from privacy_policies p where p.shop_id = l.shop_id and p.published_at is not null order by p.version desc limit 1))`;
