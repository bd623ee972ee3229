// The ISO 4217 code of the currency a price text is written in, read only when the text leaves no
// doubt: a guessed currency is a wrong price. Symbols shared by several currencies ("$", "¥", "kr")
// only agree with a name that settles them ("¥1,200 RMB"); they never decide alone.

import { once } from './lazy.ts'
import { escapePattern } from '../base/pattern.ts'
import { UNSPACED } from './phrase-pattern.ts'

/** Codes read as tokens ("EUR", "chf"): common shop currencies, not all of ISO 4217. */
const CODES = new Set([
  'USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CHF', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'TWD', 'KRW', 'INR', 'PKR', 'LKR',
  'NPR', 'BDT', 'IDR', 'MYR', 'THB', 'VND', 'PHP', 'SEK', 'NOK', 'DKK', 'ISK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN',
  'RSD', 'TRY', 'RUB', 'UAH', 'BYN', 'KZT', 'GEL', 'AZN', 'ILS', 'AED', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR', 'JOD',
  'EGP', 'MAD', 'TND', 'NGN', 'KES', 'GHS', 'ZAR', 'BRL', 'MXN', 'ARS', 'CLP', 'COP', 'PEN', 'UYU',
])
// Codes that are also words ("try", "rub", "pen", "cad", "cop"), read only in capitals. AMD is left
// out of CODES: in capitals it is a chip maker far more often than the Armenian dram.
const WORD_CODES = new Set(['TRY', 'RUB', 'PEN', 'RON', 'CAD', 'PHP', 'MAD', 'GEL', 'COP'])

// The currencies a shared sign may stand for.
const DOLLARS = ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'TWD', 'MXN', 'ARS', 'CLP', 'COP', 'UYU']
const YEN_OR_YUAN = ['JPY', 'CNY']
// 元 is the yuan of China, but Taiwan and Hong Kong write it for their dollars too.
const YUAN = ['CNY', 'TWD', 'HKD']
const KRONA = ['SEK', 'NOK', 'DKK', 'ISK']
const RUPEES = ['INR', 'PKR', 'LKR', 'NPR']

interface Sign {
  written: string
  codes: readonly string[]
  /** Case-sensitive: in other cases the letters are a word or a unit ("ft" is feet, "tl" is not the lira). */
  exact?: boolean
  /** The start of a word ("руб" in "рублей"), so no word boundary after it. */
  stem?: boolean
}

const one = (code: string) => [code]

const SIGNS: Sign[] = [
  { written: '€', codes: one('EUR') }, { written: 'euro', codes: one('EUR') }, { written: 'euros', codes: one('EUR') },
  { written: '£', codes: one('GBP') },
  { written: 'US$', codes: one('USD'), exact: true }, { written: 'U$S', codes: one('USD'), exact: true },
  // C$ is officially the Nicaraguan córdoba, but shops on the web mean Canadian dollars by it.
  { written: 'C$', codes: one('CAD'), exact: true }, { written: 'CA$', codes: one('CAD'), exact: true },
  { written: 'A$', codes: one('AUD'), exact: true }, { written: 'AU$', codes: one('AUD'), exact: true },
  { written: 'NZ$', codes: one('NZD'), exact: true }, { written: 'HK$', codes: one('HKD'), exact: true },
  { written: 'S$', codes: one('SGD'), exact: true }, { written: 'SG$', codes: one('SGD'), exact: true },
  { written: 'MX$', codes: one('MXN'), exact: true }, { written: 'AR$', codes: one('ARS'), exact: true },
  { written: 'R$', codes: one('BRL'), exact: true },
  { written: 'NT$', codes: one('TWD'), exact: true }, { written: 'NTD', codes: one('TWD') },
  { written: '新台幣', codes: one('TWD') }, { written: '新臺幣', codes: one('TWD') }, { written: '新台币', codes: one('TWD') },
  { written: '台幣', codes: one('TWD') }, { written: '台币', codes: one('TWD') },
  { written: '$', codes: DOLLARS },
  { written: 'CN¥', codes: one('CNY'), exact: true }, { written: 'RMB', codes: one('CNY') },
  { written: '人民币', codes: one('CNY') }, { written: '人民幣', codes: one('CNY') },
  { written: 'JP¥', codes: one('JPY'), exact: true }, { written: '円', codes: one('JPY') }, { written: '日元', codes: one('JPY') },
  { written: '¥', codes: YEN_OR_YUAN }, { written: '元', codes: YUAN },
  { written: '美元', codes: one('USD') }, { written: '港元', codes: one('HKD') }, { written: '港币', codes: one('HKD') },
  { written: '港幣', codes: one('HKD') }, { written: '欧元', codes: one('EUR') }, { written: '歐元', codes: one('EUR') },
  { written: '₩', codes: one('KRW') }, { written: '원', codes: one('KRW') },
  { written: '₹', codes: one('INR') },
  // The rupees of India, Pakistan, Sri Lanka and Nepal are all written Rs (₨ folds to Rs) and रु.
  { written: 'Rs', codes: RUPEES, exact: true }, { written: 'रु', codes: RUPEES },
  // Belarusian shops write руб. for BYN too; Russian ones are far more common, so руб. reads as RUB.
  { written: '₽', codes: one('RUB') }, { written: 'руб', codes: one('RUB'), stem: true }, { written: 'р.', codes: one('RUB') },
  { written: '₴', codes: one('UAH') }, { written: 'грн', codes: one('UAH') },
  { written: '₸', codes: one('KZT') }, { written: 'тг', codes: one('KZT') },
  { written: 'zł', codes: one('PLN') }, { written: 'Kč', codes: one('CZK') }, { written: 'Ft', codes: one('HUF'), exact: true },
  // Moldova writes lei for its leu too; Romanian shops are the common case.
  { written: 'lei', codes: one('RON') }, { written: 'лв', codes: one('BGN') },
  { written: '₺', codes: one('TRY') }, { written: 'TL', codes: one('TRY'), exact: true },
  { written: 'kr', codes: KRONA },
  { written: '₪', codes: one('ILS') }, { written: '₫', codes: one('VND') }, { written: 'đ', codes: one('VND') },
  { written: 'VNĐ', codes: one('VND') }, { written: '฿', codes: one('THB') }, { written: 'บาท', codes: one('THB') },
  { written: '₱', codes: one('PHP') }, { written: '₦', codes: one('NGN') }, { written: '₾', codes: one('GEL') },
  { written: '₼', codes: one('AZN') }, { written: '৳', codes: one('BDT') }, { written: '₵', codes: one('GHS') },
  { written: 'RM', codes: one('MYR'), exact: true }, { written: 'Rp', codes: one('IDR'), exact: true },
  { written: 'د.إ', codes: one('AED') }, { written: 'ر.س', codes: one('SAR') }, { written: 'ج.م', codes: one('EGP') },
  // Left out: "Br" (Belarusian ruble, Ethiopian birr, and an abbreviation of many words), "Fr."
  // (Swiss and CFA francs), bare "R" (rand, or any R): none names one currency.
]

/** Each cased letter as a class of both cases, so one regex holds exact and case-blind signs. */
function anyCase(text: string): string {
  return [...text].map((char) => {
    const lower = char.toLowerCase()
    const upper = char.toUpperCase()
    return lower !== upper && lower.length === 1 && upper.length === 1 ? `[${lower}${upper}]` : escapePattern(char)
  }).join('')
}

const LETTER = /\p{L}/u

/** A sign starting or ending in a letter is a word of its own: "円" but not "半円", "lei" but not "Leica". */
function signPattern(sign: Sign): string {
  const first = sign.written[0]
  const last = sign.written[sign.written.length - 1]
  const body = sign.exact ? escapePattern(sign.written) : anyCase(sign.written)
  const before = LETTER.test(first) ? '(?<!\\p{L})' : ''
  const after = LETTER.test(last) && !UNSPACED.test(last) && !sign.stem ? '(?!\\p{L})' : ''
  return before + body + after
}

const EXACT_SIGNS = new Map(SIGNS.filter((sign) => sign.exact).map((sign) => [sign.written, sign]))
const CASELESS_SIGNS = new Map(SIGNS.filter((sign) => !sign.exact).map((sign) => [sign.written.toLowerCase(), sign]))
// Signs longest first, so "US$" is read before "$"; then any three-letter token as a possible code.
const mention = once(
  () =>
    new RegExp(
      `(${[...SIGNS].sort((a, b) => b.written.length - a.written.length).map(signPattern).join('|')})|(?<!\\p{L})(\\p{L}{3})(?!\\p{L})`,
      'gu',
    ),
)

/** The currencies one mention may stand for, or undefined for a token that is no currency. */
function codesOf(sign: string | undefined, token = ''): readonly string[] | undefined {
  if (sign !== undefined) return (EXACT_SIGNS.get(sign) ?? CASELESS_SIGNS.get(sign.toLowerCase()))?.codes
  const code = token.toUpperCase()
  if (!CODES.has(code)) return undefined
  return token === code || !WORD_CODES.has(code) ? [code] : undefined
}

/**
 * The ISO 4217 code of the one currency `text` names, or undefined: when it names none, two, or
 * only a shared sign; a shared sign must agree with the named one ("¥" with "円", "$" with "USD").
 */
export function currencyOf(text: string): string | undefined {
  const written = text.normalize('NFKC')
  const named = new Set<string>()
  const shared: (readonly string[])[] = []
  for (const match of written.matchAll(mention())) {
    const codes = codesOf(match[1], match[2])
    if (codes === undefined) continue
    if (codes.length === 1) named.add(codes[0])
    else shared.push(codes)
  }
  if (named.size !== 1) return undefined
  const [code] = named
  return shared.every((codes) => codes.includes(code)) ? code : undefined
}
