// Landing pages: editor input, list, scripts, and the view model the public page renders.
import { z } from './zod.ts';
import { dayField, requiredText, rowTimes, text, type BusinessDetailsView } from './fields.ts';
import { listEndpoint, shopItemParams, shopParam } from './list.ts';
import { endpoint, type QueryOf } from './endpoint.ts';
import { SHOP_CODE_RE } from './rules.ts';
import type { PrivacyPolicyView } from './privacy.ts';
import { trackingTag, trackingTags, type TrackingTag } from './tracking-tags.ts';

export const LANDING_STATUSES = ['draft', 'open', 'closed'] as const;
type LandingStatus = (typeof LANDING_STATUSES)[number];
export const LANDING_STATUS_LABELS: Record<LandingStatus, string> = { draft: '작성 중', open: '게시', closed: '종료' };

/** What a visitor gets right now: status combined with the schedule. */
const LANDING_STATES = ['draft', 'scheduled', 'open', 'ended'] as const;
export type LandingState = (typeof LANDING_STATES)[number];
export const LANDING_STATE_LABELS: Record<LandingState, string> = { draft: '작성 중', scheduled: '게시 예약', open: '게시 중', ended: '종료' };

/**
 * `reopenAt`: a landing a contract's daily cap closed opens again by itself at the next Seoul
 * midnight — counted open from that instant, whether or not the reopening job has run yet.
 */
export function landingState(l: { status: LandingStatus; openAt: string | null; closeAt: string | null; reopenAt?: string | null }, now: Date): LandingState {
  if (l.status === 'draft') return 'draft';
  const closed = l.status === 'closed' && !(l.reopenAt && new Date(l.reopenAt) <= now);
  if (closed || (l.closeAt && new Date(l.closeAt) <= now)) return 'ended';
  if (l.openAt && new Date(l.openAt) > now) return 'scheduled';
  return 'open';
}

export const landingPath = (shopCode: string, landingCode: string) => `/view/${shopCode}/${landingCode}`;
export const privacyPath = (shopCode: string, landingCode: string) => `/view/${shopCode}/${landingCode}/privacy`;

export const FIELD_TYPES = ['short-text', 'select', 'radio', 'checkbox'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FIELD_TYPE_LABELS: Record<FieldType, string> = { 'short-text': '단답형', select: '드롭다운', radio: '단일 선택', checkbox: '복수 선택' };

/** Keys the intake form uses itself; extra fields may not take them. */
const RESERVED_FIELD_KEYS = [
  'shopCode', 'landingCode', 'name', 'phone', 'privacyConsent', 'marketingConsent', 'sensitiveConsent', 'referrer', 'website', '_t',
  'utm_source', 'utm_medium', 'utm_campaign', 'utm_content', 'utm_term',
] as const;
const FIELD_KEY_RE = /^[a-z][a-zA-Z0-9_]{0,29}$/;
export const HEX_COLOR_RE = /^#[0-9a-fA-F]{6}$/;
/** Images uploaded through the editor are served from /uploads/<key>.<ext>. */
export const UPLOAD_URL_RE = /^\/uploads\/[A-Za-z0-9_-]{8,64}\.(png|jpg|webp|gif)$/;

/** Only absolute http(s) URLs: never javascript:, data: or protocol-relative ones. */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s"'<>`\\]+$/i.test(value)) return false;
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

const required = requiredText;
const hex = z.string().trim().regex(HEX_COLOR_RE, '색상은 #RRGGBB 형식으로 입력하세요.');
export const httpUrl = z.string().trim().max(500, '500자 이하로 입력하세요.').refine(isHttpUrl, 'http:// 또는 https:// 로 시작하는 주소만 입력할 수 있습니다.');
const isoDateTime = z.iso
  .datetime({ offset: true, message: '올바른 일시가 아닙니다.' })
  .transform((v) => new Date(v).toISOString());

export const imageRef = z.object({
  url: z
    .string()
    .trim()
    .max(500)
    // https only: the page's CSP (and browsers' mixed-content rules) would block http images.
    .refine((v) => UPLOAD_URL_RE.test(v) || (isHttpUrl(v) && /^https:/i.test(v)), '이미지는 업로드한 파일이나 https:// 주소만 사용할 수 있습니다.'),
  width: z.number().int().min(1).max(10000),
  height: z.number().int().min(1).max(10000),
  alt: text(100).default(''),
});
export type ImageRef = z.infer<typeof imageRef>;

export const DEFAULT_COLORS = { primary: '#1263dc', background: '#f5f7fb', text: '#1f2329' };
export const landingColors = z.object({ primary: hex, background: hex, text: hex });

export const landingContent = z.object({
  hero: imageRef.nullable().default(null),
  headline: required(80, '대표 문구를 입력하세요.'),
  subheadline: text(160).default(''),
  /** Plain text; blank lines separate paragraphs. */
  body: text(3000).default(''),
  bullets: z.array(required(100, '항목을 입력하세요.')).max(10, '10개 이하로 입력하세요.').default([]),
  /** Further images below the text, loaded lazily. */
  images: z.array(imageRef).max(6, '6개 이하로 올리세요.').default([]),
  ctaLabel: required(20, '버튼 문구를 입력하세요.').default('무료 상담 신청'),
  colors: landingColors.default(DEFAULT_COLORS),
}, '대표 문구 등 랜딩 내용을 입력하세요.');
export type LandingContent = z.infer<typeof landingContent>;

export const formField = z
  .object({
    key: z.string().trim().regex(FIELD_KEY_RE, '키는 영문 소문자로 시작하는 영문·숫자·_ 30자 이내입니다.'),
    label: required(40, '항목 이름을 입력하세요.'),
    type: z.enum(FIELD_TYPES, '유형을 선택하세요.'),
    options: z.array(required(50, '선택지를 입력하세요.')).max(20, '선택지는 20개 이하입니다.').default([]),
    required: z.boolean().default(false),
    /** 건강·민감정보: collected only with a consent of its own (PIPA art. 23). */
    sensitive: z.boolean().default(false),
  })
  .superRefine((f, ctx) => {
    if (f.type !== 'short-text' && f.options.length === 0) ctx.addIssue({ code: 'custom', path: ['options'], message: '선택지를 1개 이상 입력하세요.' });
    if (new Set(f.options).size !== f.options.length) ctx.addIssue({ code: 'custom', path: ['options'], message: '같은 선택지가 두 번 있습니다.' });
  })
  .transform((f) => (f.type === 'short-text' ? { ...f, options: [] } : f));
export type FormField = z.infer<typeof formField>;

export const formFields = z
  .array(formField)
  .max(10, '추가 항목은 10개 이하입니다.')
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      if ((RESERVED_FIELD_KEYS as readonly string[]).includes(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: '기본 항목이 쓰는 키입니다. 다른 키를 입력하세요.' });
      if (seen.has(f.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: '같은 키가 두 번 있습니다.' });
      seen.add(f.key);
    });
  });

export const DEFAULT_PRIVACY_CONSENT =
  '상담 신청을 위해 이름과 연락처를 수집하며, 상담 및 안내 목적으로만 이용합니다. 동의를 거부할 수 있으나 거부 시 상담 신청이 제한됩니다.';
export const DEFAULT_THANK_YOU = '신청이 접수되었습니다. 담당자가 곧 연락드리겠습니다.';

/** Everything /landing-status edits. Scripts are not here: only /landing-script-management sets them. */
export const landingInput = z
  .object({
    landingCode: required(40, '랜딩 코드를 입력하세요.').regex(SHOP_CODE_RE, '랜딩 코드는 영문 소문자·숫자·하이픈으로 40자 이내입니다.'),
    title: required(60, '랜딩 이름을 입력하세요.'),
    openAt: isoDateTime.nullable().default(null),
    closeAt: isoDateTime.nullable().default(null),
    mediaTypeId: z.number().int().positive().nullable().default(null),
    eventTypeId: z.number().int().positive().nullable().default(null),
    content: landingContent,
    formFields: formFields.default([]),
    privacyConsentText: required(2000, '개인정보 수집·이용 동의 문구를 입력하세요.').default(DEFAULT_PRIVACY_CONSENT),
    /** Null: the form has no marketing consent checkbox. */
    marketingConsentText: text(1000).transform((v) => v || null).nullable().default(null),
    thankYouMessage: required(300, '신청 완료 문구를 입력하세요.').default(DEFAULT_THANK_YOU),
    /** When set, visitors are sent here after submitting instead of seeing the message. */
    thankYouUrl: z.union([z.literal(''), httpUrl]).transform((v) => v || null).nullable().default(null),
    duplicateWindowDays: z.coerce.number().int('정수로 입력하세요.').min(0).max(365, '365일 이하로 입력하세요.').default(30),
    /** Null: the shop's latest published privacy policy. */
    privacyPolicyVersionId: z.number().int().positive().nullable().default(null),
  })
  .refine((v) => !v.openAt || !v.closeAt || v.openAt < v.closeAt, { path: ['closeAt'], message: '종료 일시는 시작 일시보다 뒤여야 합니다.' });
export type LandingInput = z.infer<typeof landingInput>;

export const landing = z.object({
  id: z.number(),
  shopId: z.number(),
  landingCode: z.string(),
  title: z.string(),
  status: z.enum(LANDING_STATUSES),
  state: z.enum(LANDING_STATES),
  openAt: z.string().nullable(),
  closeAt: z.string().nullable(),
  mediaTypeId: z.number().nullable(),
  eventTypeId: z.number().nullable(),
  content: landingContent,
  formFields: z.array(formField),
  privacyConsentText: z.string(),
  marketingConsentText: z.string().nullable(),
  thankYouMessage: z.string(),
  thankYouUrl: z.string().nullable(),
  duplicateWindowDays: z.number(),
  privacyPolicyVersionId: z.number().nullable(),
  hasScripts: z.boolean(),
  /** Labels of form fields its privacy policy's items do not name (a warning on publishing). */
  uncoveredFields: z.array(z.string()),
  /** Unless closed: why no contract covers its leads today (contractGap), each a Korean sentence; empty when one does. */
  contractGap: z.array(z.string()),
  publishedAt: z.string().nullable(),
  version: z.number(),
  /** Public path, e.g. /view/smile-dental/implant-event. */
  url: z.string(),
  ...rowTimes,
});
export type Landing = z.infer<typeof landing>;

/**
 * 실험안별: one variant of an experiment that ran in the period, with its visits and leads in
 * the period (those its visitors' beacons and forms carried; deleted leads not counted).
 */
export const variantFigures = z.object({
  experimentId: z.number(),
  experimentName: z.string(),
  key: z.string(),
  visits: z.number(),
  submissions: z.number(),
  /** Submissions per visit in percent, one decimal; null without visits. */
  conversionRate: z.number().nullable(),
});
export type VariantFigures = z.infer<typeof variantFigures>;

export const landingListItem = landing
  .pick({ id: true, landingCode: true, title: true, status: true, state: true, openAt: true, closeAt: true, publishedAt: true, url: true, updatedAt: true, uncoveredFields: true })
  .extend({
    mediaTypeName: z.string().nullable(),
    eventTypeName: z.string().nullable(),
    /** For the chosen period (Seoul days, inclusive). */
    visits: z.number(),
    submissions: z.number(),
    /** Submissions per visit in percent, one decimal; null without visits. */
    conversionRate: z.number().nullable(),
    /** 실험안별: the variants of the experiments that ran in the period (oldest experiment first); empty without one. */
    variants: z.array(variantFigures),
  });
export type LandingListItem = z.infer<typeof landingListItem>;

const SCRIPT_MAX = 20_000;
const scriptText = z
  .string()
  .max(SCRIPT_MAX, `${SCRIPT_MAX}자 이하로 입력하세요.`)
  .refine((v) => !/<\/?(html|head|body|template)\b/i.test(v), 'html·head·body·template 태그는 넣을 수 없습니다.')
  .default('');

export const FREE_SCRIPT_FIELDS = ['headScript', 'bodyScript', 'conversionScript'] as const;

/**
 * What /landing-script-management saves: tracking tags from templates, and free-form
 * scripts — which the server takes only when public pages have an origin of their own.
 */
export const landingScriptsInput = z.object({
  trackingTags: trackingTags.default([]),
  headScript: scriptText,
  bodyScript: scriptText,
  conversionScript: scriptText,
});
export type LandingScriptsInput = z.infer<typeof landingScriptsInput>;

export const FREE_SCRIPTS_DISABLED =
  '직접 작성한 스크립트는 공개 페이지가 관리 화면과 다른 주소에서 제공될 때만 쓸 수 있습니다. 같은 주소에서는 스크립트가 관리자의 로그인으로 관리 기능을 실행할 수 있기 때문입니다. 서버 설정 PUBLIC_ORIGIN에 공개 페이지 전용 주소(예: https://lp.example.com)를 지정하면 쓸 수 있습니다. 그 전에는 추적 태그 템플릿을 쓰세요.';

export const landingScripts = z.object({
  landingId: z.number(),
  landingCode: z.string(),
  title: z.string(),
  trackingTags: z.array(trackingTag),
  headScript: z.string(),
  bodyScript: z.string(),
  conversionScript: z.string(),
  /** Free-form scripts are served (PUBLIC_ORIGIN is set); otherwise stored ones are kept but not served. */
  freeScriptsEnabled: z.boolean(),
  updatedAt: z.string(),
});
export type LandingScripts = z.infer<typeof landingScripts>;

export const hasFreeScripts = (s: { headScript: string; bodyScript: string; conversionScript: string }) =>
  FREE_SCRIPT_FIELDS.some((k) => s[k].trim() !== '');

export const uploadResponse = z.object({
  id: z.number(),
  url: z.string(),
  mime: z.string(),
  width: z.number(),
  height: z.number(),
  size: z.number(),
});
export const IMAGE_UPLOAD_MAX_BYTES = 3 * 1024 * 1024;
/**
 * The largest image an upload may be, read from its header before anything decodes it: a real
 * landing image (a 24 MP camera photo is 6000×4000) fits; a small file that says it is
 * 20000×13000 (a decompression bomb) does not.
 */
export const IMAGE_MAX_SIDE = 8_000;
export const IMAGE_MAX_PIXELS = 40_000_000;
/** Uploads per account per minute (a person at the editor uploads a few). */
export const IMAGE_UPLOADS_PER_MINUTE = 30;
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** What the public page renders: one landing with its shop and current privacy policy. */
export interface LandingView {
  shop: { code: string; name: string } & BusinessDetailsView;
  landing: {
    id: number;
    code: string;
    title: string;
    content: LandingContent;
    formFields: FormField[];
    privacyConsentText: string;
    marketingConsentText: string | null;
    thankYouMessage: string;
    thankYouUrl: string | null;
    trackingTags: TrackingTag[];
    /** Free-form scripts: empty unless public pages have an origin of their own (PUBLIC_ORIGIN). */
    headScript: string;
    bodyScript: string;
    conversionScript: string;
    version: number;
  };
  policy: PrivacyPolicyView | null;
  operator: OperatorView | null;
  /** Signed render stamp the form posts back (minimum fill time). */
  token: string;
  /** Public pages' origin, when known (PUBLIC_ORIGIN): the page names its canonical URL on it (search engines want it absolute). */
  origin?: string;
  /** The experiment variant this page is (its form and visit beacon carry it); absent on the landing's own page. */
  variant?: { experimentId: number; key: string } | null;
  /** Editor preview: no scripts, no submitting. */
  preview?: boolean;
}

/** What the public privacy page renders. */
export interface PrivacyPageView {
  shop: LandingView['shop'];
  /** The landing's form fields: what its privacy page lists as collected. */
  /** `title`: the page's public title (its headline), never the landing's internal name. */
  landing: { code: string; title: string; formFields: FormField[] };
  /** Null when the shop has not published a policy yet. */
  policy: PrivacyPolicyView | null;
  /** The agency; null until a 최고관리자 enters its details. */
  operator: OperatorView | null;
}

/** The agency as privacy pages name it. */
export interface OperatorView {
  companyName: string;
  representative: string;
  businessNumber: string | null;
  phone: string | null;
  address: string;
  privacyOfficerName: string;
  privacyOfficerContact: string;
}

export const landingsApi = {
  list: listEndpoint({
    path: '/api/shops/:shopId/landings', params: shopParam, item: landingListItem,
    sort: ['title', 'landingCode', 'status', 'openAt', 'closeAt', 'publishedAt', 'updatedAt', 'visits', 'submissions'],
    /** Statistics period; defaults to the last 30 days (Seoul) up to today. */
    filters: { status: z.enum(LANDING_STATUSES).optional(), from: dayField.optional(), to: dayField.optional() },
    extra: { period: z.object({ from: z.string(), to: z.string() }) },
  }),
  /** Every landing of the shop by title, for pickers (the lead list's landing filter). */
  options: endpoint({
    method: 'GET', path: '/api/shops/:shopId/landings/options', params: shopParam,
    response: z.object({ items: z.array(z.object({ id: z.number(), title: z.string(), landingCode: z.string(), status: z.enum(LANDING_STATUSES) })) }),
  }),
  create: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings', params: shopParam, body: landingInput, response: landing, status: 201 }),
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/landings/:id', params: shopItemParams, response: landing }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:shopId/landings/:id', params: shopItemParams, body: landingInput, response: landing }),
  publish: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/:id/publish', params: shopItemParams, response: landing }),
  close: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/:id/close', params: shopItemParams, response: landing }),
  upload: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/uploads', params: shopParam, body: 'multipart', response: uploadResponse, status: 201 }),
  /** Previews answer HTML (the editor's iframe): no scripts run, nothing submits. */
  preview: endpoint({ method: 'GET', path: '/api/shops/:shopId/landings/:id/preview', params: shopItemParams, response: 'html' }),
  previewInput: endpoint({ method: 'POST', path: '/api/shops/:shopId/landings/preview', params: shopParam, body: landingInput, response: 'html' }),
};
export type LandingListQuery = QueryOf<typeof landingsApi.list>;

export const landingScriptsApi = {
  list: endpoint({ method: 'GET', path: '/api/shops/:shopId/landing-scripts', params: shopParam, response: z.object({ items: z.array(landingScripts) }) }),
  get: endpoint({ method: 'GET', path: '/api/shops/:shopId/landings/:id/scripts', params: shopItemParams, response: landingScripts }),
  update: endpoint({ method: 'PUT', path: '/api/shops/:shopId/landings/:id/scripts', params: shopItemParams, body: landingScriptsInput, response: landingScripts }),
};

/** One AVIF or WebP copy of an uploaded image (made once on upload), at one width. */
export interface PictureSource {
  url: string;
  width: number;
}
/** An uploaded image as a page offers it: the upload's own size and its copies, smallest first. */
export interface Picture {
  width: number;
  height: number;
  avif: PictureSource[];
  webp: PictureSource[];
}
/** By the image URL the landing's content names (/uploads/<key>.<ext>). */
export type Pictures = Record<string, Picture>;
