// The agency itself (the operator): named as the collector of personal data on every
// landing's privacy page, unless a shop collects for itself. Set by a 최고관리자.
import { z } from './zod.ts';
import { optionalBusinessNumber, optionalPhone, requiredText } from './fields.ts';
import { endpoint } from './endpoint.ts';

export const operatorInput = z.object({
  companyName: requiredText(60, '상호(회사명)를 입력하세요.'),
  representative: requiredText(30, '대표자 이름을 입력하세요.'),
  businessNumber: optionalBusinessNumber,
  phone: optionalPhone(),
  address: requiredText(200, '사업장 주소를 입력하세요.'),
  privacyOfficerName: requiredText(30, '개인정보 보호책임자를 입력하세요.'),
  privacyOfficerContact: requiredText(60, '보호책임자 연락처(전화 또는 이메일)를 입력하세요.'),
});
export type OperatorInput = z.infer<typeof operatorInput>;

export const operator = z.object({
  companyName: z.string(),
  representative: z.string(),
  businessNumber: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string(),
  privacyOfficerName: z.string(),
  privacyOfficerContact: z.string(),
  updatedAt: z.string(),
});
export type Operator = z.infer<typeof operator>;

/** Null until a 최고관리자 enters the agency's details. */
export const operatorResponse = z.object({ operator: operator.nullable(), editable: z.boolean() });

export const OPERATOR_MISSING =
  '운영사(대행사) 정보가 등록되지 않아 개인정보 처리방침에 수집하는 자를 적을 수 없습니다. 최고관리자에게 업체 관리 › 운영사 정보 등록을 요청하세요.';

export const operatorApi = {
  get: endpoint({ method: 'GET', path: '/api/operator', response: operatorResponse }),
  update: endpoint({ method: 'PUT', path: '/api/operator', body: operatorInput, response: operatorResponse }),
};
