// Pure rules shared by server, SPA and landing pages.

/** Digits only; +82 / 82 country prefix becomes a leading 0. */
export function normalisePhone(input: string): string {
  let digits = String(input ?? '').replace(/\D/g, '');
  if (digits.startsWith('82') && digits.length >= 11) digits = '0' + digits.slice(2);
  return digits;
}

const MOBILE = /^01[016789]\d{7,8}$/;
const SEOUL = /^02\d{7,8}$/;
const AREA = /^0(3[1-3]|4[1-4]|5[1-5]|6[1-4])\d{7,8}$/;
const INTERNET = /^070\d{8}$/;
const PERSONAL = /^050\d{8,9}$/;
const REPRESENTATIVE = /^1[5-9]\d{6}$/;

/** Korean mobile or landline (incl. 070, 050x and 15xx/16xx/18xx numbers), normalised digits. */
export function isKoreanPhone(digits: string): boolean {
  return [MOBILE, SEOUL, AREA, INTERNET, PERSONAL, REPRESENTATIVE].some((re) => re.test(digits));
}

/** 01012345678 → 010-1234-5678, 0212345678 → 02-1234-5678, 15881234 → 1588-1234. */
export function formatPhone(digits: string): string {
  const d = normalisePhone(digits);
  if (/^1\d{7}$/.test(d)) return `${d.slice(0, 4)}-${d.slice(4)}`;
  const head = d.startsWith('02') ? 2 : d.startsWith('050') && d.length === 12 ? 4 : 3;
  const rest = d.slice(head);
  if (rest.length < 7) return d;
  const mid = rest.length - 4;
  return `${d.slice(0, head)}-${rest.slice(0, mid)}-${rest.slice(mid)}`;
}

/** 01012345678 → 010-****-5678: the middle group hidden. */
export function maskPhone(digits: string): string {
  const formatted = formatPhone(digits);
  const parts = formatted.split('-');
  if (parts.length === 3) return `${parts[0]}-${'*'.repeat(parts[1]!.length)}-${parts[2]}`;
  if (parts.length === 2) return `${'*'.repeat(parts[0]!.length)}-${parts[1]}`;
  return formatted.length > 4 ? '*'.repeat(formatted.length - 4) + formatted.slice(-4) : '****';
}

/** Korean business registration number (사업자등록번호), 10 digits with its check digit. */
export function isBusinessNumber(input: string): boolean {
  const d = String(input ?? '').replace(/-/g, '');
  if (!/^\d{10}$/.test(d)) return false;
  const w = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  const n = d.split('').map(Number);
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += n[i]! * w[i]!;
  sum += Math.floor((n[8]! * 5) / 10);
  return (10 - (sum % 10)) % 10 === n[9];
}

export function formatBusinessNumber(input: string): string {
  const d = String(input ?? '').replace(/\D/g, '');
  return d.length === 10 ? `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}` : input;
}

/** Password policy: ≥ 10 characters of 2 kinds, or ≥ 8 of 3 kinds (letters, digits, symbols). */
export function passwordProblem(pw: string): string | null {
  const kinds = [/[A-Za-z]/, /\d/, /[^A-Za-z\d\s]/].filter((re) => re.test(pw)).length;
  if (/\s/.test(pw)) return '비밀번호에 공백을 넣을 수 없습니다.';
  if (pw.length > 128) return '비밀번호는 128자 이하여야 합니다.';
  if ((pw.length >= 10 && kinds >= 2) || (pw.length >= 8 && kinds >= 3)) return null;
  return '영문·숫자·특수문자 중 2종류 이상으로 10자 이상, 또는 3종류로 8자 이상이어야 합니다.';
}

export const LOGIN_ID_RE = /^[a-z][a-z0-9._-]{3,29}$/;
export const SHOP_CODE_RE = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const CODE_RE = /^[A-Za-z0-9_-]{1,40}$/;

/** IPv4 dotted quad. */
export function isIPv4(s: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  return !!m && m.slice(1).every((p) => Number(p) <= 255 && String(Number(p)) === p);
}

export function isIPv6(s: string): boolean {
  return /^[0-9a-f:]+$/i.test(s) && s.includes(':') && s.split('::').length <= 2;
}

export function isCidr(s: string): boolean {
  const [ip, bits, extra] = s.split('/');
  if (extra !== undefined || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (isIPv4(ip)) return Number(bits) <= 32;
  if (isIPv6(ip)) return Number(bits) <= 128;
  return false;
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, p) => acc * 256 + Number(p), 0);
}

/** Whether an IPv4 address (also in ::ffff: form) is inside an IPv4 CIDR block. */
export function cidrContains(cidr: string, ipInput: string): boolean {
  const ip = ipInput.startsWith('::ffff:') ? ipInput.slice(7) : ipInput;
  const [base, bitsText] = cidr.split('/');
  if (!base || !bitsText || !isIPv4(base) || !isIPv4(ip)) return false;
  const bits = Number(bitsText);
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
  return ((ipv4ToInt(base) & mask) >>> 0) === ((ipv4ToInt(ip) & mask) >>> 0);
}
