// The house antd theme. Every text colour antd draws on its usual backgrounds (white, the
// table header and the light tints of tags and alerts) reaches WCAG AA's 4.5:1: antd's defaults
// do not (secondary and placeholder text at 45 % and 25 % black, #1677ff links and buttons, the
// light tags' 7th shade), so they are set here once for every screen. theme.test.ts checks it.
import type { ThemeConfig } from 'antd';

/** The primary blue: antd's #1677ff a shade deeper, so links, selected menu entries and white on buttons read at 4.5:1. */
export const PRIMARY = '#1263dc';
/** Error red: form messages, danger buttons and badge counts. */
export const ERROR = '#d9262c';
/** Secondary, description and placeholder text: 60 % / 57 % black instead of 45 % / 25 %. */
const TEXT_TERTIARY = 'rgba(0, 0, 0, 0.6)';
const TEXT_PLACEHOLDER = 'rgba(0, 0, 0, 0.57)';
/** Dark enough text shades for the status colours (their bright seeds stay for icons and charts). */
const SUCCESS_TEXT = '#237804';
export const WARNING_TEXT = '#975a00';

/**
 * Light tags print the palette's 7th shade on its 1st; for these the 8th is needed (blue, red,
 * magenta, purple and geekblue already pass). antd 6 does not take palette shades as theme
 * tokens, so layouts/ant-shell.css sets these as CSS variables on the tag; theme.test.ts checks
 * both the values and that the stylesheet carries them.
 */
export const TAG_TEXT = {
  green: '#237804',
  cyan: '#006d75',
  orange: '#ad4e00',
  gold: WARNING_TEXT,
  volcano: '#ad2102',
  lime: '#3f6600',
  yellow: '#7a5e00',
} as const;

export const THEME: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY,
    // Links take the info colour.
    colorInfo: PRIMARY,
    colorLink: PRIMARY,
    colorError: ERROR,
    // antd lightens these for hover and press; a lighter blue or red under white text drops below
    // 4.5:1 while the pointer rests on the button, so they go darker instead.
    colorPrimaryHover: '#0b4fb8',
    colorPrimaryActive: '#083f94',
    colorLinkHover: '#0b4fb8',
    colorLinkActive: '#083f94',
    colorErrorHover: '#b31d22',
    colorErrorActive: '#8f171b',
    colorTextTertiary: TEXT_TERTIARY,
    colorTextDescription: TEXT_TERTIARY,
    colorTextPlaceholder: TEXT_PLACEHOLDER,
    colorSuccessText: SUCCESS_TEXT,
    colorWarningText: WARNING_TEXT,
    fontSize: 14,
    controlHeight: 32,
    borderRadius: 6,
  },
  components: {
    // Status tags print the status colour itself as text on its light tint.
    Tag: { colorSuccess: SUCCESS_TEXT, colorWarning: WARNING_TEXT },
    // The switch's off track carries its white 끔/켬 text.
    Switch: { colorTextQuaternary: 'rgba(0, 0, 0, 0.56)', colorTextTertiary: 'rgba(0, 0, 0, 0.7)' },
  },
};
