import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { contrastRatio, MIN_TEXT_CONTRAST } from '@contracts/contrast.ts';
import { TAG_TEXT, THEME } from './theme.ts';

type Tokens = Record<string, unknown>;
const tokens = theme.getDesignToken(THEME) as unknown as Tokens;

/** A token's colour as opaque `#rrggbb` over `background` (antd's greys are translucent black). */
function solid(color: string, background: string): string {
  const rgba = /^rgba?\(([^)]+)\)$/.exec(color.replace(/\s/g, ''));
  if (!rgba) return color.slice(0, 7);
  const [r, g, b, a = 1] = rgba[1]!.split(',').map(Number) as [number, number, number, number?];
  const bg = [1, 3, 5].map((i) => parseInt(background.slice(i, i + 2), 16));
  return `#${[r, g, b].map((c, i) => Math.round(c * a + bg[i]! * (1 - a)).toString(16).padStart(2, '0')).join('')}`;
}

const color = (nameOrHex: string, over = '#ffffff'): string => {
  const value = nameOrHex.startsWith('#') ? nameOrHex : (tokens[nameOrHex] as string | undefined);
  if (typeof value !== 'string') throw new Error(`no token ${nameOrHex}`);
  return solid(value, over);
};

/** Text on background, as antd pairs them (backgrounds: white, table header, page grey and the tints). */
const PAIRS: Array<[text: string, background: string]> = [
  ['colorText', '#ffffff'],
  ['colorTextSecondary', '#ffffff'],
  ...['#ffffff', 'colorFillAlter', 'colorBgLayout', 'colorErrorBg', 'colorWarningBg', 'colorInfoBg', 'colorSuccessBg'].map(
    (bg) => ['colorTextDescription', bg] as [string, string],
  ),
  ['colorTextTertiary', '#ffffff'],
  ['colorTextPlaceholder', '#ffffff'],
  ['colorPrimary', '#ffffff'],
  ['colorPrimary', 'colorPrimaryBg'],
  ['colorPrimary', 'colorErrorBg'],
  ['colorPrimary', 'colorBgLayout'],
  ['colorLink', '#ffffff'],
  ['colorTextLightSolid', 'colorPrimary'],
  ['colorTextLightSolid', 'colorPrimaryHover'],
  ['colorTextLightSolid', 'colorPrimaryActive'],
  ['colorLinkHover', '#ffffff'],
  ['colorTextLightSolid', 'colorError'],
  ['colorTextLightSolid', 'colorErrorHover'],
  ['colorTextLightSolid', 'colorErrorActive'],
  ['colorErrorText', '#ffffff'],
  ['colorErrorText', 'colorErrorBg'],
  ['colorSuccessText', '#ffffff'],
  ['colorWarningText', '#ffffff'],
  ['colorWarningText', 'colorWarningBg'],
  // Light tags: the 7th shade on the 1st (the deeper ones from TAG_TEXT, see below).
  ...['blue', 'red', 'magenta', 'purple', 'geekblue'].map((c) => [`${c}7`, `${c}1`] as [string, string]),
  ...Object.entries(TAG_TEXT).map(([c, text]) => [text, `${c}1`] as [string, string]),
];

describe('house theme contrast', () => {
  it.each(PAIRS)('%s on %s reaches 4.5:1', (text, background) => {
    const bg = color(background);
    expect(contrastRatio(color(text, bg), bg)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('status tags and the switch track, whose colours are set per component', () => {
    const tag = THEME.components!.Tag as Tokens;
    expect(contrastRatio(color(tag.colorSuccess as string), color('colorSuccessBg'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(color(tag.colorWarning as string), color('colorWarningBg'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(color('colorError'), color('colorErrorBg'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    expect(contrastRatio(color('colorInfo'), color('colorInfoBg'))).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    const track = solid((THEME.components!.Switch as Tokens).colorTextQuaternary as string, '#ffffff');
    expect(contrastRatio('#ffffff', track)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
  });

  it('the shell stylesheet sets the deeper tag shades', () => {
    const css = fs.readFileSync(new URL('../layouts/ant-shell.css', import.meta.url), 'utf8');
    for (const [c, text] of Object.entries(TAG_TEXT)) expect(css).toContain(`--ant-${c}-7: ${text};`);
  });

  it('antd defaults fail the same pairs (the check can fail)', () => {
    const defaults = theme.getDesignToken() as unknown as Tokens;
    expect(contrastRatio(solid(defaults.colorTextDescription as string, '#ffffff'), '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
    expect(contrastRatio(defaults.colorPrimary as string, '#ffffff')).toBeLessThan(MIN_TEXT_CONTRAST);
  });
});
