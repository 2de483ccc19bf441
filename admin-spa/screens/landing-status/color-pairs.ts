// The text/background pairs a landing's three colours make on its public page, and their
// contrast. Mirrors pages/view/render/style.ts: the page's content column is white (headline,
// body and links on it), the bullets and table heads sit on the landing's background colour,
// and the button's text is whichever of white and near-black reads better on the theme colour
// (readableOn, the renderer's rule).
import { contrastRatio, MIN_TEXT_CONTRAST, readableOn } from '@contracts/contrast.ts';

export interface LandingColors {
  primary: string;
  background: string;
  text: string;
}

interface ColorPair {
  key: 'text-on-page' | 'text-on-background' | 'button' | 'link';
  /** What the pair is on the page (Korean, for the editor). */
  label: string;
  /** The subject of the warning sentence, with its particle ("글자와 배경의"). */
  subject: string;
  foreground: string;
  background: string;
  /** WCAG contrast ratio, or null while a colour is not a full #rrggbb. */
  ratio: number | null;
  ok: boolean;
}

/** The content column's background in the public page's CSS. */
const PAGE_SURFACE = '#ffffff';

export function landingColorPairs(colors: LandingColors): ColorPair[] {
  const pairs: Array<Omit<ColorPair, 'ratio' | 'ok'>> = [
    { key: 'text-on-page', label: '글자색 · 흰 본문', subject: '글자와 흰 본문 바탕의', foreground: colors.text, background: PAGE_SURFACE },
    { key: 'text-on-background', label: '글자색 · 배경색', subject: '글자와 배경의', foreground: colors.text, background: colors.background },
    { key: 'button', label: '버튼 글자 · 강조색', subject: '버튼 글자와 강조색의', foreground: readableOn(colors.primary), background: colors.primary },
    { key: 'link', label: '링크(강조색) · 흰 본문', subject: '링크(강조색)와 흰 본문 바탕의', foreground: colors.primary, background: PAGE_SURFACE },
  ];
  return pairs.map((p) => {
    const ratio = contrastRatio(p.foreground, p.background);
    return { ...p, ratio, ok: ratio === null || ratio >= MIN_TEXT_CONTRAST };
  });
}

/** A ratio as people read it, rounded down so a pair just under the minimum never shows as "4.5:1". */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 10) / 10).toFixed(1)}:1`;
}

/** The editor's warning for a pair below the minimum. */
export function contrastWarning(pair: ColorPair): string | null {
  if (pair.ok || pair.ratio === null) return null;
  return `${pair.subject} 명암비 ${formatRatio(pair.ratio)} — ${MIN_TEXT_CONTRAST}:1 이상을 권장합니다.`;
}
