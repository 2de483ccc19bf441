import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { FormInstance } from 'antd';
import { landingRule, newLandingValues, parseInput, parsePreviewInput, toEditorValues, variantFieldErrors, variantValues, type EditorValues } from './landing-form.ts';
import type { Landing } from '@contracts/landings.ts';

type Validator = () => Promise<void>;

function formOf(values: EditorValues) {
  return { getFieldsValue: () => values } as unknown as FormInstance<EditorValues>;
}
const check = (values: EditorValues, path: (string | number)[]) => (landingRule(formOf(values), path) as { validator: Validator }).validator();

function filled(): EditorValues {
  const v = newLandingValues();
  return { ...v, landingCode: 'summer', title: '여름 이벤트', content: { ...v.content, headline: '여름 미백 체험' } };
}

describe('landing editor values', () => {
  it('turns a filled new landing into valid input: no marketing consent, the thank-you message', () => {
    const result = parseInput(filled());
    expect(result.success).toBe(true);
    expect(result.data).toMatchObject({ landingCode: 'summer', marketingConsentText: null, thankYouUrl: null, duplicateWindowDays: 30, formFields: [] });
  });

  it('round-trips a saved landing', () => {
    const saved = parseInput({
      ...filled(),
      openAt: dayjs('2026-12-01T00:00:00Z'),
      marketingEnabled: true,
      thankYouMode: 'url',
      thankYouUrl: 'https://example.com/thanks',
      formFields: [{ key: 'branch', label: '지점', type: 'select', options: ['강남', '잠실'], required: true }],
    }).data!;
    const landing = { ...saved, id: 1, status: 'draft', state: 'draft' } as unknown as Landing;
    expect(parseInput(toEditorValues(landing)).data).toEqual(saved);
  });

  it('checks rules spanning fields inline, on the field they belong to', async () => {
    const reserved = { ...filled(), formFields: [{ key: 'phone', label: '전화', type: 'short-text' as const }] };
    await expect(check(reserved, ['formFields', 0, 'key'])).rejects.toThrow('기본 항목이 쓰는 키입니다');
    await expect(check(reserved, ['formFields', 0, 'label'])).resolves.toBeUndefined();

    const noOptions = { ...filled(), formFields: [{ key: 'branch', label: '지점', type: 'radio' as const, options: [] }] };
    await expect(check(noOptions, ['formFields', 0, 'options'])).rejects.toThrow('선택지를 1개 이상');

    const backwards = { ...filled(), openAt: dayjs('2026-12-02T00:00:00Z'), closeAt: dayjs('2026-12-01T00:00:00Z') };
    await expect(check(backwards, ['closeAt'])).rejects.toThrow('종료 일시는 시작 일시보다 뒤여야 합니다.');

    const badUrl = { ...filled(), thankYouMode: 'url' as const, thankYouUrl: 'javascript:alert(1)' };
    await expect(check(badUrl, ['thankYouUrl'])).rejects.toThrow('http://');
  });

  it('previews an empty new landing with placeholders', () => {
    const result = parsePreviewInput(newLandingValues());
    expect(result.success).toBe(true);
    expect(result.data!.content.headline).toBe('대표 문구를 입력하세요');
  });

  it('edits a variant as the landing with its content and fields, and places the server’s errors on the variant’s fields', () => {
    const saved = parseInput({ ...filled(), formFields: [{ key: 'branch', label: '지점', type: 'select', options: ['강남', '잠실'], required: true }] }).data!;
    const landing = { ...saved, id: 1, status: 'open', state: 'open' } as unknown as Landing;
    const content = { ...saved.content, headline: 'B안 문구', colors: { ...saved.content.colors, primary: '#aa0044' }, formFields: [{ key: 'time', label: '시간', type: 'short-text' as const, options: [], required: false, sensitive: false }] };
    const parsed = parseInput(variantValues(landing, content)).data!;
    // What the variant editor saves: the variant's content and fields; the rest stays the landing's.
    expect({ ...parsed.content, formFields: parsed.formFields }).toEqual(content);
    expect(parsed.privacyConsentText).toBe(saved.privacyConsentText);
    // A variant saved before it had fields of its own starts from the landing's.
    expect(variantValues(landing, saved.content).formFields!.map((f) => f.key)).toEqual(['branch']);

    const errors = variantFieldErrors({ name: '실험 이름을 입력하세요.', 'variants.1.content.headline': '대표 문구를 입력하세요.', 'variants.1.content.formFields.0.key': '같은 키가 두 번 있습니다.', 'variants.2.content.ctaLabel': 'C안' }, 1);
    expect(errors).toEqual([
      { name: ['content', 'headline'], errors: ['대표 문구를 입력하세요.'] },
      { name: ['formFields', 0, 'key'], errors: ['같은 키가 두 번 있습니다.'] },
    ]);
  });
});
