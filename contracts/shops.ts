import { z } from './zod.ts';
import { listQuery } from './list.ts';
import { SHOP_CODE_RE, isBusinessNumber, isKoreanPhone, normalisePhone } from './rules.ts';

export const SHOP_STATUSES = ['active', 'disabled'] as const;
export const SHOP_STATUS_LABELS: Record<(typeof SHOP_STATUSES)[number], string> = { active: '운영', disabled: '사용 중지' };

export const shop = z.object({
  id: z.number(),
  shopCode: z.string(),
  name: z.string(),
  clientTypeId: z.number().nullable(),
  clientTypeName: z.string().nullable(),
  status: z.enum(SHOP_STATUSES),
  companyName: z.string().nullable(),
  representative: z.string().nullable(),
  businessNumber: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  privacyOfficerName: z.string().nullable(),
  privacyOfficerContact: z.string().nullable(),
  leadCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Shop = z.infer<typeof shop>;

const optionalText = (max: number) =>
  z.string().trim().max(max, `${max}자 이하로 입력하세요.`).transform((v) => v || null).nullable().optional();

/** Business details a shop may also edit itself (base-information). */
export const shopDetails = z.object({
  name: z.string().trim().min(1, '업체명을 입력하세요.').max(60, '60자 이하로 입력하세요.'),
  companyName: optionalText(60),
  representative: optionalText(30),
  businessNumber: z
    .string()
    .trim()
    .max(12)
    .refine((v) => v === '' || isBusinessNumber(v), '올바른 사업자등록번호가 아닙니다.')
    .transform((v) => (v ? v.replace(/-/g, '') : null))
    .nullable()
    .optional(),
  phone: z
    .string()
    .trim()
    .max(20)
    .transform((v) => (v ? normalisePhone(v) : ''))
    .refine((v) => v === '' || isKoreanPhone(v), '올바른 전화번호를 입력하세요.')
    .transform((v) => v || null)
    .nullable()
    .optional(),
  address: optionalText(200),
  privacyOfficerName: optionalText(30),
  privacyOfficerContact: optionalText(60),
});

export type ShopDetails = z.infer<typeof shopDetails>;

export const shopInput = shopDetails.extend({
  shopCode: z
    .string()
    .trim()
    .regex(SHOP_CODE_RE, '업체 코드는 영문 소문자·숫자·하이픈으로 40자 이내입니다.'),
  clientTypeId: z.number().int().positive().nullable().optional(),
  status: z.enum(SHOP_STATUSES).default('active'),
});
export type ShopInput = z.infer<typeof shopInput>;

export const shopListQuery = listQuery.extend({
  status: z.enum(SHOP_STATUSES).optional(),
  clientTypeId: z.coerce.number().int().positive().optional(),
});
