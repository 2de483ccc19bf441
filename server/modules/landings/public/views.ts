// The view models the public pages render, loaded from the database. Used by the Vike
// data hooks (pages/view/…), the page cache, the editor preview and the prerender script.
import type { Kysely } from 'kysely';
import type { Database, LandingRow, OperatorSettingsTable, PrivacyPolicyRow, ShopRow } from '../../../db/schema.ts';
import { landingsRepository, type PublicState } from '../landings.repository.ts';
import { experimentsRepository } from '../experiments.repository.ts';
import {
  formFields as formFieldsSchema, landingContent, landingPath, landingState, type LandingInput, type LandingState, type LandingView, type OperatorView, type PrivacyPageView,
} from '../../../../contracts/landings.ts';
import type { PrivacyPolicyView, ThirdParty } from '../../../../contracts/privacy.ts';
import { variantContent } from '../../../../contracts/experiments.ts';
import { trackingTags as trackingTagsSchema } from '../../../../contracts/tracking-tags.ts';

/** What a visitor gets now; a disabled shop's landings count as ended. */
export function publicState(st: Pick<PublicState, 'status' | 'open_at' | 'close_at' | 'reopen_at' | 'shop_status'>, now: Date): LandingState {
  if (st.shop_status !== 'active') return 'ended';
  return landingState({ status: st.status, openAt: st.open_at, closeAt: st.close_at, reopenAt: st.reopen_at }, now);
}

/** What rendered HTML depends on: the landing's version, the shop's and the agency's details, the policy in force. */
export const renderStamp = (st: Pick<PublicState, 'version' | 'shop_updated_at' | 'policy_id' | 'operator_updated_at' | 'experiment_id' | 'experiment_updated_at'>) =>
  `${st.version}.${st.shop_updated_at}.${st.policy_id ?? 0}.${st.operator_updated_at ?? '-'}.${st.experiment_id ?? 0}.${st.experiment_updated_at ?? '-'}`;

export function operatorView(o: OperatorSettingsTable | undefined): OperatorView | null {
  return o
    ? {
        companyName: o.company_name, representative: o.representative, businessNumber: o.business_number, phone: o.phone,
        address: o.address, privacyOfficerName: o.privacy_officer_name, privacyOfficerContact: o.privacy_officer_contact,
      }
    : null;
}

export function shopView(s: ShopRow): LandingView['shop'] {
  return {
    code: s.shop_code, name: s.name, companyName: s.company_name, representative: s.representative,
    businessNumber: s.business_number, phone: s.phone, address: s.address,
    privacyOfficerName: s.privacy_officer_name, privacyOfficerContact: s.privacy_officer_contact,
  };
}

/** A published policy as pages show it (its own officer, or null: the page names the collector's). */
export function policyView(p: PrivacyPolicyRow | undefined): PrivacyPolicyView | null {
  if (!p || !p.published_at) return null;
  return {
    id: p.id, version: p.version, collector: p.collector, purpose: p.purpose, items: p.items, retentionDays: p.retention_days,
    thirdParties: JSON.parse(p.third_parties) as ThirdParty[],
    officerName: p.officer_name, officerContact: p.officer_contact,
    body: p.body, publishedAt: p.published_at,
  };
}

type ViewLanding = Omit<LandingView['landing'], 'id' | 'version'>;

/** Free-form scripts reach a page only when public pages have an origin of their own (PUBLIC_ORIGIN). */
interface ViewOptions {
  freeScripts: boolean;
}

export function landingFieldsView(l: LandingRow, o: ViewOptions): ViewLanding {
  return {
    code: l.landing_code, title: l.title,
    content: landingContent.parse(JSON.parse(l.content)), formFields: formFieldsSchema.parse(JSON.parse(l.form_fields)),
    privacyConsentText: l.privacy_consent_text, marketingConsentText: l.marketing_consent_text,
    thankYouMessage: l.thank_you_message, thankYouUrl: l.thank_you_url,
    trackingTags: trackingTagsSchema.parse(JSON.parse(l.tracking_tags)),
    headScript: o.freeScripts ? l.head_script : '',
    bodyScript: o.freeScripts ? l.body_script : '',
    conversionScript: o.freeScripts ? l.conversion_script : '',
  };
}

/** Unsaved editor input as the preview shows it: no tags, no scripts. */
export function inputView(i: LandingInput): ViewLanding {
  return {
    code: i.landingCode, title: i.title, content: i.content, formFields: i.formFields,
    privacyConsentText: i.privacyConsentText, marketingConsentText: i.marketingConsentText,
    thankYouMessage: i.thankYouMessage, thankYouUrl: i.thankYouUrl,
    trackingTags: [], headScript: '', bodyScript: '', conversionScript: '',
  };
}

type PublicLandingRow = NonNullable<Awaited<ReturnType<ReturnType<typeof landingsRepository>['publicLanding']>>>;

const shopOfRow = (r: PublicLandingRow): LandingView['shop'] => ({
  code: r.shop_code, name: r.shop_name, companyName: r.company_name, representative: r.representative,
  businessNumber: r.business_number, phone: r.shop_phone, address: r.address,
  privacyOfficerName: r.privacy_officer_name, privacyOfficerContact: r.privacy_officer_contact,
});

export function landingViews(db: Kysely<Database>, o: ViewOptions = { freeScripts: false }) {
  const repo = landingsRepository(db);
  const experiments = experimentsRepository(db);

  async function load(shopCode: string, landingCode: string) {
    const st = await repo.publicState(shopCode, landingCode);
    if (!st) return null;
    const row = await repo.publicLanding(st.id);
    if (!row) return null;
    const policy = row.policy_id ? await repo.publishedPolicy(row.shop_id, row.policy_id) : undefined;
    return { st, row, policy, operator: operatorView(await repo.operator()) };
  }

  return {
    state: repo.publicState,
    stateById: repo.publicStateById,
    states: repo.publicStates,

    /**
     * The landing page's view; the caller signs the form token. With a variant key: that variant
     * of the running experiment (its content; null when no experiment runs or it has no such variant).
     */
    async landing(shopCode: string, landingCode: string, token: (landingId: number) => string, variant?: string): Promise<LandingView | null> {
      const found = await load(shopCode, landingCode);
      if (!found) return null;
      const { row, policy, operator } = found;
      const fields = landingFieldsView(row, o);
      let experiment: LandingView['variant'] = null;
      if (variant) {
        const running = await experiments.running(row.id);
        const v = running?.variants.find((x) => x.key === variant);
        if (!running || !v) return null;
        experiment = { experimentId: running.id, key: v.key };
        if (v.content) {
          // The variant's copy, colours and hero, and its form (its own fields in its order, when it has them).
          const { formFields, ...content } = variantContent.parse(JSON.parse(v.content));
          fields.content = content;
          if (formFields) fields.formFields = formFields;
        }
      }
      return {
        shop: shopOfRow(row),
        landing: { id: row.id, version: row.version, ...fields },
        policy: policyView(policy),
        operator,
        token: token(row.id),
        ...(experiment ? { variant: experiment } : {}),
      };
    },

    async privacy(shopCode: string, landingCode: string): Promise<PrivacyPageView | null> {
      const found = await load(shopCode, landingCode);
      if (!found) return null;
      const { row, policy, operator } = found;
      const formFields = formFieldsSchema.parse(JSON.parse(row.form_fields));
      // While an experiment runs, the page lists what any of its variants' forms collects too.
      for (const v of (await experiments.running(row.id))?.variants ?? []) {
        for (const f of (v.content ? variantContent.parse(JSON.parse(v.content)).formFields : null) ?? []) {
          if (!formFields.some((x) => x.key === f.key)) formFields.push(f);
        }
      }
      return {
        shop: shopOfRow(row),
        // The visitor knows the page by its headline; `title` is the staff's internal name for it.
        landing: { code: row.landing_code, title: landingContent.parse(JSON.parse(row.content)).headline, formFields },
        policy: policyView(policy),
        operator,
      };
    },
  };
}

/** Public URLs of every landing open now (npm start prints them; prerender lists them). */
export async function openLandingUrls(db: Kysely<Database>, origin = '', now = new Date()): Promise<string[]> {
  const states = await landingsRepository(db).publicStates();
  return states.filter((s) => publicState(s, now) === 'open').map((s) => `${origin}${landingPath(s.shop_code, s.landing_code)}`);
}
