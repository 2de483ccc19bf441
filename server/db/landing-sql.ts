// SQL fragments more than one repository needs.
import { sql } from 'kysely';

/** The privacy policy visitors of landing `l` consent to: the pinned version, else the shop's latest published one. */
/** The content of the experiment variant lead `l` was shown (null outside an experiment, or for A): its form fields label the lead's answers. */
export const leadVariantContent = sql<string | null>`(select v.content from landing_experiment_variants v where v.experiment_id = l.experiment_id and v.key = l.variant)`;

export const effectivePolicyId = sql<number | null>`coalesce(l.privacy_policy_version_id, (
  select p.id from privacy_policies p where p.shop_id = l.shop_id and p.published_at is not null order by p.version desc limit 1))`;
