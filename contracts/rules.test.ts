import { describe, expect, it } from 'vitest';
import {
  cidrContains, formatPhone, isBusinessNumber, isCidr, isKoreanPhone, maskPhone, normalisePhone, passwordProblem,
} from './rules.ts';
import {
  BUILTIN_ACCOUNT_TYPES, allows, beyondSide, forSide, homePath, matrixForSide, normaliseMatrix, sideAllows, uniformMatrix,
} from './permissions.ts';
import { SCREENS } from './screens.ts';

describe('phone numbers', () => {
  it('normalise to digits, +82 becoming 0', () => {
    expect(normalisePhone('010-1234-5678')).toBe('01012345678');
    expect(normalisePhone('+82 10 1234 5678')).toBe('01012345678');
    expect(normalisePhone(' (02) 123-4567 ')).toBe('021234567');
  });
  it('accept Korean mobiles and landlines, refuse the rest', () => {
    for (const ok of ['01012345678', '0111234567', '021234567', '0212345678', '0311234567', '07012345678', '15881234']) {
      expect(isKoreanPhone(ok), ok).toBe(true);
    }
    for (const bad of ['0101234', '12345678901', '01512345678', '0001234567', '']) expect(isKoreanPhone(bad), bad).toBe(false);
  });
  it('format and mask the middle group', () => {
    expect(formatPhone('01012345678')).toBe('010-1234-5678');
    expect(formatPhone('021234567')).toBe('02-123-4567');
    expect(formatPhone('15881234')).toBe('1588-1234');
    expect(maskPhone('01012345678')).toBe('010-****-5678');
    expect(maskPhone('0212345678')).toBe('02-****-5678');
    expect(maskPhone('15881234')).toBe('****-1234');
  });
});

describe('business registration numbers', () => {
  it('check the check digit', () => {
    expect(isBusinessNumber('107-86-16321')).toBe(true);
    expect(isBusinessNumber('1078616321')).toBe(true);
    expect(isBusinessNumber('107-86-16322')).toBe(false);
    expect(isBusinessNumber('123-45-67890')).toBe(false);
    expect(isBusinessNumber('12345')).toBe(false);
  });
});

describe('password policy', () => {
  it('takes 10+ characters of two kinds or 8+ of three', () => {
    expect(passwordProblem('abcdefghi1')).toBeNull();
    expect(passwordProblem('abcde12!')).toBeNull();
    expect(passwordProblem('abcdefghij')).not.toBeNull();
    expect(passwordProblem('abcdef12')).not.toBeNull();
    expect(passwordProblem('abc de12!x')).not.toBeNull();
  });
});

describe('CIDR', () => {
  it('parses and matches IPv4 blocks, also for ::ffff: addresses', () => {
    expect(isCidr('203.0.113.0/24')).toBe(true);
    expect(isCidr('203.0.113.0/33')).toBe(false);
    expect(cidrContains('203.0.113.0/24', '203.0.113.77')).toBe(true);
    expect(cidrContains('203.0.113.0/24', '::ffff:203.0.113.77')).toBe(true);
    expect(cidrContains('203.0.113.0/24', '203.0.114.1')).toBe(false);
    expect(cidrContains('0.0.0.0/0', '8.8.8.8')).toBe(true);
  });
});

describe('permission matrix', () => {
  it('covers all 34 guarded screens, write implying read', () => {
    expect(SCREENS).toHaveLength(34);
    const m = normaliseMatrix({ 'client-setting': 'write', 'account-setting': 'read' });
    expect(Object.keys(m)).toHaveLength(34);
    expect(allows(m, 'client-setting', 'read')).toBe(true);
    expect(allows(m, 'account-setting', 'write')).toBe(false);
    expect(allows(m, 'dashboard', 'read')).toBe(false);
  });
  it('sends each account to the first screen it may read', () => {
    expect(homePath('admin', uniformMatrix('write'))).toBe('/dashboard');
    expect(homePath('shop', uniformMatrix('read'))).toBe('/shop-dashboard');
    expect(homePath('shop', normaliseMatrix({ 'database-status': 'write' }))).toBe('/database-status');
  });
});

describe('agency and client', () => {
  it('keeps the agency’s books, ad tools and administrator screens from the client, and contract changes to reading', () => {
    const client = matrixForSide('client', uniformMatrix('write'));
    const agencyOnly = SCREENS.filter((s) => client[s.key] === 'none').map((s) => s.key);
    expect(agencyOnly).toEqual([...SCREENS.filter((s) => s.area === 'admin').map((s) => s.key), 'cpa-management', 'advertising-status', 'landing-script-management']);
    expect(client['contract-management']).toBe('read');
    expect(sideAllows('client', 'contract-management', 'write')).toBe(false);
    expect(sideAllows('client', 'contract-status', 'read')).toBe(true);
    expect(sideAllows('client', 'no-such-screen', 'read')).toBe(false);
    expect(matrixForSide('agency', uniformMatrix('write'))).toEqual(uniformMatrix('write'));
  });
  it('gives the built-in client types nothing of the agency’s, and the agency’s types their side', () => {
    for (const t of BUILTIN_ACCOUNT_TYPES) expect(beyondSide(t.side, t.permissions), t.key).toEqual([]);
    expect(Object.fromEntries(BUILTIN_ACCOUNT_TYPES.map((t) => [t.key, t.side]))).toEqual({
      superadmin: 'agency', admin: 'agency', marketer: 'agency', 'shop-owner': 'client', counselor: 'client',
    });
  });
  it('drops the agency’s figures from a mixed answer for the client only', () => {
    const answer = { leads: 3, ad: { spend: 1000 } };
    expect(forSide('client', answer, ['ad'])).toEqual({ leads: 3, ad: null });
    expect(forSide('agency', answer, ['ad'])).toBe(answer);
  });
});
