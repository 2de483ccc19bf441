// Inline CSS of the public pages: mobile first, system fonts, colours from validated hex values.
// Staff choose a landing's colours; the page derives the text colours from them so every text
// stays readable (WCAG AA, 4.5:1): the button's text follows its background, links take the
// theme colour darkened as far as white needs, and body text falls back to dark on white.
import { DEFAULT_COLORS, HEX_COLOR_RE } from '../../../contracts/landings.ts';
import { contrastRatio, MIN_TEXT_CONTRAST, parseHex, readableOn } from '../../../contracts/contrast.ts';

const BASE =
  '*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.65 -apple-system,BlinkMacSystemFont,"Apple SD Gothic Neo","Malgun Gothic",sans-serif;word-break:keep-all;-webkit-text-size-adjust:100%}' +
  'main{max-width:560px;margin:0 auto;background:#fff;min-height:100vh}img{display:block;max-width:100%;height:auto}.in{padding:24px 20px}' +
  'h1{font-size:26px;line-height:1.35;margin:0 0 10px;letter-spacing:-.02em}h2{font-size:19px;margin:28px 0 8px}.sub{font-size:17px;color:#4e5969;margin:0 0 16px}' +
  'p{margin:0 0 12px}a{color:var(--pt)}footer{padding:20px 20px 40px;font-size:12px;color:#646a73;line-height:1.7}footer a{color:inherit}' +
  '@media(min-width:600px){main{margin:24px auto;min-height:0;border-radius:16px;overflow:hidden;box-shadow:0 2px 16px rgba(0,0,0,.06)}h1{font-size:30px}}';

const LANDING =
  '.pts{list-style:none;padding:0;margin:16px 0}.pts li{position:relative;padding:10px 12px 10px 38px;margin:0 0 8px;background:var(--tint);border-radius:10px}' +
  '.pts li:before{content:"✓";position:absolute;left:14px;color:var(--pt);font-weight:700}.imgs img{margin:0 0 12px;border-radius:8px}' +
  'form,#ok{margin:20px 0 0;padding:20px;border-radius:16px;background:#fff;border:1px solid #e5e6eb;box-shadow:0 4px 24px rgba(0,0,0,.06)}' +
  'form h2{margin:0 0 14px}.f{display:block;margin:0 0 14px;font-weight:600;font-size:15px}' +
  '.f input,.f select{display:block;width:100%;margin-top:6px;padding:12px 14px;font:inherit;font-weight:400;border:1px solid #c9cdd4;border-radius:10px;background:#fff;color:inherit}' +
  'input:focus,select:focus{outline:2px solid var(--p);outline-offset:1px}fieldset{border:0;padding:0;margin:0 0 14px}legend{font-weight:600;font-size:15px;padding:0;margin:0 0 4px}' +
  '.o{display:flex;gap:10px;align-items:center;padding:5px 0;font-size:15px}.o input{width:20px;height:20px;margin:0;flex:none;accent-color:var(--p)}' +
  '.c{font-size:14px;color:#4e5969;margin:4px 0 14px}.c details{margin:0 0 6px 30px}.c summary{cursor:pointer}.c p{margin:6px 0}' +
  'button{display:block;width:100%;padding:16px;border:0;border-radius:12px;background:var(--p);color:var(--on-p);font:inherit;font-size:18px;font-weight:700;cursor:pointer}button:disabled{opacity:.6}' +
  '.req{color:#c4302b}#m{color:#c4302b;font-size:14px;margin:0 0 10px}#m:empty{display:none}[aria-invalid=true]{border-color:#c4302b!important}' +
  '#ok{text-align:center;font-size:18px;font-weight:600;padding:32px 20px}.hp{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}' +
  '.pv{background:#fffbe6;color:#874f00;padding:8px 20px;font-size:13px;text-align:center}';

const PRIVACY =
  'table{width:100%;table-layout:fixed;border-collapse:collapse;font-size:14px;margin:0 0 12px}th,td{border:1px solid #e5e6eb;padding:8px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}th{background:var(--tint)}' +
  '.meta{color:#646a73;font-size:14px}';

const safe = (v: string | undefined, fallback: string) => (v && HEX_COLOR_RE.test(v) ? v : fallback);

const WHITE = '#ffffff';
const hex2 = (n: number) => Math.round(Math.max(0, Math.min(255, n))).toString(16).padStart(2, '0');

/** The colour darkened step by step (towards black) until text in it reads on `on`. */
function darkenUntilReadable(color: string, on: string): string {
  const rgb = parseHex(color)!;
  for (let k = 1; k >= 0; k -= 0.04) {
    const c = `#${rgb.map((v) => hex2(v * k)).join('')}`;
    if ((contrastRatio(c, on) ?? 0) >= MIN_TEXT_CONTRAST) return c;
  }
  return '#000000';
}

/** The theme's CSS variables, text colours made readable on what they sit on. */
export function themeVars(colors?: Partial<typeof DEFAULT_COLORS>) {
  const p = safe(colors?.primary, DEFAULT_COLORS.primary).toLowerCase();
  const bg = safe(colors?.background, DEFAULT_COLORS.background).toLowerCase();
  const text = safe(colors?.text, DEFAULT_COLORS.text).toLowerCase();
  // The content column is white: text must read there first.
  const fg = (contrastRatio(text, WHITE) ?? 0) >= MIN_TEXT_CONTRAST ? text : DEFAULT_COLORS.text;
  // Bullets sit on the theme background unless the text would not read on it.
  const tint = (contrastRatio(fg, bg) ?? 0) >= MIN_TEXT_CONTRAST ? bg : DEFAULT_COLORS.background;
  // Pure black or white: one of them always reaches 4.5:1 on any colour.
  const onP = readableOn(p, WHITE, '#000000');
  return { p, 'on-p': onP, pt: darkenUntilReadable(p, tint), bg, tint, fg };
}

function vars(colors?: Partial<typeof DEFAULT_COLORS>): string {
  return `:root{${Object.entries(themeVars(colors)).map(([k, v]) => `--${k}:${v}`).join(';')}}`;
}

export const landingCss = (colors?: Partial<typeof DEFAULT_COLORS>) => vars(colors) + BASE + LANDING;
export const privacyCss = (colors?: Partial<typeof DEFAULT_COLORS>) => vars(colors) + BASE + PRIVACY;
