// The editor's form values and their conversion to and from the API's landing shape.
// Validation always runs the contract's landingInput on the converted values.
import type { Dayjs } from 'dayjs';
import type { Rule } from 'antd/es/form/index.js';
import type { FormInstance } from 'antd';
import {
  DEFAULT_COLORS, DEFAULT_PRIVACY_CONSENT, DEFAULT_THANK_YOU, landingInput,
  type FieldType, type ImageRef, type Landing,
} from '@contracts/landings.ts';
import type { VariantContent } from '@contracts/experiments.ts';
import { fromPicker, toPicker } from '@/lib/seoul-time.ts';
import { fieldErrors } from '@/lib/zod-rule.ts';

type ThankYouMode = 'message' | 'url';

export interface EditorField {
  key: string;
  label: string;
  type: FieldType;
  options?: string[];
  required?: boolean;
  /** 건강·민감정보: asked with a consent of its own. */
  sensitive?: boolean;
}

export interface EditorValues {
  landingCode: string;
  title: string;
  openAt?: Dayjs | null;
  closeAt?: Dayjs | null;
  mediaTypeId?: number | null;
  eventTypeId?: number | null;
  duplicateWindowDays?: number | null;
  privacyPolicyVersionId?: number | null;
  content: {
    hero?: ImageRef | null;
    headline: string;
    subheadline?: string;
    body?: string;
    bullets?: string[];
    images?: ImageRef[];
    ctaLabel: string;
    colors: { primary: string; background: string; text: string };
  };
  formFields?: EditorField[];
  privacyConsentText: string;
  marketingEnabled?: boolean;
  marketingConsentText?: string;
  thankYouMode: ThankYouMode;
  thankYouMessage: string;
  thankYouUrl?: string;
}

const DEFAULT_MARKETING_CONSENT = '이벤트·혜택 등 광고성 정보를 문자와 전화로 받아보는 데 동의합니다. 동의하지 않아도 상담 신청은 가능합니다.';

export function newLandingValues(): EditorValues {
  return {
    landingCode: '',
    title: '',
    openAt: null,
    closeAt: null,
    mediaTypeId: null,
    eventTypeId: null,
    duplicateWindowDays: 30,
    privacyPolicyVersionId: null,
    content: { hero: null, headline: '', subheadline: '', body: '', bullets: [], images: [], ctaLabel: '무료 상담 신청', colors: { ...DEFAULT_COLORS } },
    formFields: [],
    privacyConsentText: DEFAULT_PRIVACY_CONSENT,
    marketingEnabled: false,
    marketingConsentText: DEFAULT_MARKETING_CONSENT,
    thankYouMode: 'message',
    thankYouMessage: DEFAULT_THANK_YOU,
    thankYouUrl: '',
  };
}

export function toEditorValues(l: Landing): EditorValues {
  return {
    landingCode: l.landingCode,
    title: l.title,
    openAt: toPicker(l.openAt),
    closeAt: toPicker(l.closeAt),
    mediaTypeId: l.mediaTypeId,
    eventTypeId: l.eventTypeId,
    duplicateWindowDays: l.duplicateWindowDays,
    privacyPolicyVersionId: l.privacyPolicyVersionId,
    content: { ...l.content, colors: { ...l.content.colors } },
    formFields: l.formFields.map((f) => ({ ...f })),
    privacyConsentText: l.privacyConsentText,
    marketingEnabled: l.marketingConsentText !== null,
    marketingConsentText: l.marketingConsentText ?? DEFAULT_MARKETING_CONSENT,
    thankYouMode: l.thankYouUrl ? 'url' : 'message',
    thankYouMessage: l.thankYouMessage,
    thankYouUrl: l.thankYouUrl ?? '',
  };
}

/** The request body (before the contract's parse) for these form values. */
function toInput(v: EditorValues): Record<string, unknown> {
  const c = v.content ?? ({} as EditorValues['content']);
  return {
    landingCode: v.landingCode ?? '',
    title: v.title ?? '',
    openAt: fromPicker(v.openAt),
    closeAt: fromPicker(v.closeAt),
    mediaTypeId: v.mediaTypeId ?? null,
    eventTypeId: v.eventTypeId ?? null,
    duplicateWindowDays: v.duplicateWindowDays ?? 30,
    privacyPolicyVersionId: v.privacyPolicyVersionId ?? null,
    content: {
      hero: c.hero ?? null,
      headline: c.headline ?? '',
      subheadline: c.subheadline ?? '',
      body: c.body ?? '',
      bullets: c.bullets ?? [],
      images: c.images ?? [],
      ctaLabel: c.ctaLabel ?? '',
      colors: c.colors ?? DEFAULT_COLORS,
    },
    formFields: (v.formFields ?? []).map((f) => ({ key: f.key ?? '', label: f.label ?? '', type: f.type, options: f.options ?? [], required: !!f.required, sensitive: !!f.sensitive })),
    privacyConsentText: v.privacyConsentText ?? '',
    marketingConsentText: v.marketingEnabled ? (v.marketingConsentText ?? '') : null,
    thankYouMessage: v.thankYouMessage ?? '',
    thankYouUrl: v.thankYouMode === 'url' ? (v.thankYouUrl ?? '') : null,
  };
}

export function parseInput(v: EditorValues) {
  return landingInput.safeParse(toInput(v));
}

/** What the preview renders: the input, with placeholders where the basics are still empty. */
export function parsePreviewInput(v: EditorValues) {
  const input = toInput(v) as { landingCode: string; title: string; content: { headline: string; ctaLabel: string } };
  return landingInput.safeParse({
    ...input,
    landingCode: input.landingCode.trim() || 'preview',
    title: input.title.trim() || '미리보기',
    content: { ...input.content, headline: input.content.headline.trim() || '대표 문구를 입력하세요', ctaLabel: input.content.ctaLabel.trim() || '신청하기' },
  });
}

const startsWith = (path: readonly PropertyKey[], prefix: readonly (string | number)[]) => prefix.every((p, i) => path[i] === p);

/**
 * An antd rule checking one field (or list entry) with the whole landing schema, so rules that
 * span fields — close after open, unique and unreserved field keys, options for choice fields — apply inline.
 */
export function landingRule(form: FormInstance<EditorValues>, path: (string | number)[], when?: (v: EditorValues) => boolean): Rule {
  return {
    validator: async () => {
      const values = form.getFieldsValue(true) as EditorValues;
      if (when && !when(values)) return;
      const result = parseInput(values);
      const issue = result.success ? undefined : result.error.issues.find((i) => startsWith(i.path, path));
      if (issue) throw new Error(issue.message);
    },
  };
}

/**
 * An experiment variant in the editor: the landing's values with the variant's content and form
 * fields in place of its own, so the landing schema checks the variant whole, as it checks a landing.
 */
export function variantValues(landing: Landing, content: VariantContent): EditorValues {
  return {
    ...toEditorValues(landing),
    content: { ...content, colors: { ...content.colors } },
    formFields: (content.formFields ?? landing.formFields).map((f) => ({ ...f })),
  };
}

/** The server's `variants.<index>.content.*` errors, named as the variant editor names its fields. */
export function variantFieldErrors(fields: Record<string, string> | undefined, index: number) {
  const prefix = `variants.${index}.content.`;
  const mine = Object.entries(fields ?? {})
    .filter(([k]) => k.startsWith(prefix))
    .map(([k, v]) => {
      const rest = k.slice(prefix.length);
      return [rest === 'formFields' || rest.startsWith('formFields.') ? rest : `content.${rest}`, v] as const;
    });
  return fieldErrors(Object.fromEntries(mine));
}
