// Text contrast as WCAG 2 defines it: the relative luminance of two sRGB colours and their
// ratio (1 to 21). Normal text needs 4.5:1 (AA), large text 3:1. Used by the landing editor
// to warn about a staff-chosen colour pair and by the landing renderer's tests.

/** `#rgb` or `#rrggbb` → [r, g, b] in 0…255; null for anything else. */
export function parseHex(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG relative luminance of an sRGB colour (0 black … 1 white). */
function luminance([r, g, b]: readonly [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of two `#hex` colours (1…21), or null when either is not one. */
export function contrastRatio(a: string, b: string): number | null {
  const pa = parseHex(a);
  const pb = parseHex(b);
  if (!pa || !pb) return null;
  const [hi, lo] = [luminance(pa), luminance(pb)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Normal body text's minimum (WCAG AA). */
export const MIN_TEXT_CONTRAST = 4.5;

/** Of two candidate text colours, the one that reads better on `background` (e.g. white or near-black on a button). */
export function readableOn(background: string, light = '#ffffff', dark = '#1f1f1f'): string {
  return (contrastRatio(light, background) ?? 0) >= (contrastRatio(dark, background) ?? 0) ? light : dark;
}
