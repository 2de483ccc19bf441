// Every schema in contracts/, saved empty: no raw schema message ("잘못된 입력: 예상 타입은
// string…") may reach a form or an API answer, and every input schema names what to enter.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZodType } from 'zod';
import { MISSING_MESSAGE, WRONG_TYPE_MESSAGE, z } from './zod.ts';
import { optionalPhone, phone } from './fields.ts';
import { josa, quoted, withJosa } from './korean.ts';

const dir = path.dirname(new URL(import.meta.url).pathname);
const RAW = /잘못된|예상 타입|받은 타입|expected|received|invalid/i;
/** Schemas a person fills in (forms, query strings, API bodies): named so by the house's convention. */
const INPUT_NAME = /(Input|Body|Create|Update|Query)$/;

async function contractSchemas(): Promise<Array<[string, ZodType]>> {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const found: Array<[string, ZodType]> = [];
  for (const f of files) {
    const mod = (await import(path.join(dir, f))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) if (value instanceof ZodType) found.push([`${f}:${name}`, value]);
  }
  return found;
}

describe('schema messages', () => {
  it('finds the contracts’ schemas', async () => {
    const names = (await contractSchemas()).map(([n]) => n);
    expect(names).toEqual(expect.arrayContaining(['accounts.ts:accountCreate', 'auth.ts:loginBody', 'shops.ts:shopInput', 'landings.ts:landingInput']));
  });

  it('never answers an empty object with a raw schema message, and input schemas say what to enter', async () => {
    const problems: string[] = [];
    for (const [name, schema] of await contractSchemas()) {
      const r = await schema.safeParseAsync({});
      if (r.success) continue;
      for (const issue of r.error.issues) {
        const where = `${name} ${issue.path.join('.') || '(root)'}: ${issue.message}`;
        if (RAW.test(issue.message)) problems.push(where);
        if (INPUT_NAME.test(name) && issue.message === MISSING_MESSAGE) problems.push(`${where} (generic)`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives wrong types a plain sentence', () => {
    const r = z.object({ n: z.number(), s: z.string() }).safeParse({ n: 'a', s: 1 });
    expect(r.error!.issues.map((i) => i.message)).toEqual(['숫자로 입력하세요.', WRONG_TYPE_MESSAGE]);
  });
});

describe('text input', () => {
  it('drops control characters on both engines’ behalf, keeping tabs and line breaks', () => {
    expect(z.string().parse('a\u0000b\u0007c\u007f\u0085d')).toBe('abcd');
    expect(z.string().parse('줄1\n줄2\t끝\r\n')).toBe('줄1\n줄2\t끝\r\n');
    const r = z.object({ name: z.string('이름을 입력하세요.').trim().min(1, '이름을 입력하세요.') }).safeParse({ name: '\u0000\u0000' });
    expect(r.error!.issues[0]!.message).toBe('이름을 입력하세요.');
  });

  it('refuses letters in a phone field instead of saving an empty number', () => {
    const optional = optionalPhone();
    expect(optional.safeParse('abc').error!.issues.map((i) => i.message)).toEqual(['올바른 전화번호를 입력하세요.']);
    expect(optional.safeParse('02-1234-abcd').success).toBe(false);
    expect(optional.parse('')).toBeNull();
    expect(optional.parse(undefined)).toBeUndefined();
    expect(optional.parse(' (02) 1234-5678 ')).toBe('0212345678');
    expect(optional.parse('+82 10-1234-5678')).toBe('01012345678');
    expect(phone().safeParse('').error!.issues[0]!.message).toBe('전화번호를 입력하세요.');
    expect(phone().safeParse('010-12a4-5678').error!.issues.map((i) => i.message)).toEqual(['올바른 전화번호를 입력하세요.']);
    expect(phone().parse('010.1234.5678')).toBe('01012345678');
  });
});

describe('particles', () => {
  it('follows the last syllable', () => {
    expect(quoted('…이벤트', '을/를')).toBe("'…이벤트'를");
    expect(quoted('임플란트 상담', '을/를')).toBe("'임플란트 상담'을");
    expect(withJosa('통증 부위', '을/를')).toBe('통증 부위를');
    expect(withJosa('연락처', '이/가')).toBe('연락처가');
    expect(withJosa('이름', '은/는')).toBe('이름은');
    expect(withJosa('서울', '으로/로')).toBe('서울로');
    expect(withJosa('부산역', '으로/로')).toBe('부산역으로');
    expect(withJosa('Google', '을/를')).toBe('Google을');
    expect(withJosa('Meta', '을/를')).toBe('Meta를');
    expect(withJosa('3', '을/를')).toBe('3을');
    expect(withJosa('(메타)', '과/와')).toBe('(메타)와');
    expect(josa('', '이/가')).toBe('가');
  });
});
