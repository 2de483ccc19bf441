import { describe, expect, it } from 'vitest';
import { fieldErrors, zodRule } from './zod-rule.ts';
import { shopInput } from '@contracts/shops.ts';
import { accountCreate } from '@contracts/accounts.ts';

type Validator = (rule: unknown, value: unknown) => Promise<void>;
const check = (rule: ReturnType<typeof zodRule>, value: unknown) => (rule as { validator: Validator }).validator({}, value);

describe('zodRule', () => {
  it('validates a field with the contract schema, through transforms', async () => {
    const bizNo = zodRule(shopInput, 'businessNumber');
    await expect(check(bizNo, '107-86-16321')).resolves.toBeUndefined();
    await expect(check(bizNo, '123-45-67890')).rejects.toThrow('올바른 사업자등록번호가 아닙니다.');
    await expect(check(bizNo, '')).resolves.toBeUndefined();
    await expect(check(zodRule(shopInput, 'shopCode'), 'Bad Code')).rejects.toThrow(/업체 코드/);
  });

  it('gives the same password message the server gives', async () => {
    await expect(check(zodRule(accountCreate, 'password'), 'short')).rejects.toThrow(/10자 이상/);
    await expect(check(zodRule(accountCreate, 'password'), 'Counsel-2026!')).resolves.toBeUndefined();
  });

  it('turns server field errors into antd field entries', () => {
    expect(fieldErrors({ shopCode: '이미 사용 중인 업체 코드입니다.', 'thirdParties.0.recipient': '필수' })).toEqual([
      { name: ['shopCode'], errors: ['이미 사용 중인 업체 코드입니다.'] },
      { name: ['thirdParties', 0, 'recipient'], errors: ['필수'] },
    ]);
  });
});
