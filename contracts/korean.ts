// Korean particles (조사) chosen from the last syllable, for every message that names a
// user's word: '…이벤트'를 게시할까요?, 통증 부위를 입력해 주세요 — never "을(를)".

type Josa = '을/를' | '이/가' | '은/는' | '과/와' | '으로/로' | '이에요/예요';

/** How a word ends: with a final consonant (and whether it is ㄹ), or without one. */
type Ending = 'vowel' | 'consonant' | 'rieul';

const DIGIT_ENDINGS: Record<string, Ending> = {
  '0': 'consonant', '1': 'rieul', '2': 'vowel', '3': 'consonant', '4': 'vowel',
  '5': 'vowel', '6': 'consonant', '7': 'rieul', '8': 'rieul', '9': 'vowel',
};

function ending(word: string): Ending {
  // The last letter, digit or syllable: closing quotes, brackets and punctuation are skipped.
  const m = /([0-9A-Za-z\uAC00-\uD7A3])[^0-9A-Za-z\uAC00-\uD7A3]*$/.exec(word);
  if (!m) return 'vowel';
  const ch = m[1]!;
  const code = ch.charCodeAt(0);
  if (code >= 0xac00) {
    const final = (code - 0xac00) % 28;
    return final === 0 ? 'vowel' : final === 8 ? 'rieul' : 'consonant';
  }
  if (ch in DIGIT_ENDINGS) return DIGIT_ENDINGS[ch]!;
  // Latin words as Koreans read them: Google → 구글, TikTok → 틱톡, Meta → 메타.
  const tail = word.slice(0, m.index + 1).toLowerCase();
  if (/l$|le$/.test(tail)) return 'rieul';
  return /(?:[mnkpt]|ng|ck|b)$/.test(tail) ? 'consonant' : 'vowel';
}

/** The particle of `pair` that follows `word`. */
export function josa(word: string, pair: Josa): string {
  const [withConsonant, withVowel] = pair.split('/') as [string, string];
  const e = ending(word);
  if (pair === '으로/로') return e === 'consonant' ? withConsonant : withVowel;
  return e === 'vowel' ? withVowel : withConsonant;
}

/** The word followed by its particle: withJosa('통증 부위', '을/를') → '통증 부위를'. */
export const withJosa = (word: string, pair: Josa): string => word + josa(word, pair);

/** A quoted name and its particle: quoted('상담 이벤트', '을/를') → "'상담 이벤트'를". */
export const quoted = (name: string, pair: Josa): string => `'${name}'${josa(name, pair)}`;
