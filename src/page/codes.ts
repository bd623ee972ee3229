// The product code (SKU, item number) in a text that holds more than the code: a label and its
// value, a product URL, a code in brackets. A code joins a shop's pages to its feeds, so a word is
// never returned as one: a code has a digit, or is six or more capitals and digits.

import { once } from './lazy.ts'
import { escapePattern } from '../base/pattern.ts'
import { phraseAlternation, UNSPACED, type PhraseForm } from './phrase-pattern.ts'

const MAX_CODE = 64

// Letters and digits, with inner - _ / . joining them; letters of unspaced scripts (a label such as
// 商品編號 written against its code) are not part of a code.
const CHAR = '(?:(?![\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}])[\\p{L}\\p{N}])'
const TOKEN = `${CHAR}+(?:[-_/.]${CHAR}+)*`

// What may stand between a label and its code: "SKU: ", "Art.-Nr. ", "Item #", "品番：", "Ref. (".
const SEPARATORS = '[\\s:#=.\\-(\\[«"“\'‘〈「【《]*'

const DIGIT = /\p{N}/u
const LOWER = /\p{Ll}/u
const NOT_ALNUM = /[^\p{L}\p{N}]/gu
const ALNUM = /[\p{L}\p{N}]/u

/**
 * Labels of a shop's own code, without their closing dot or colon (SEPARATORS skips those). Model,
 * MPN, EAN and part numbers are left out: they name the manufacturer's product, not the listing.
 */
const LABELS = [
  'sku', 'item', 'item no', 'item number', 'item code', 'article no', 'article number', 'product code', 'product no',
  'product number', 'stock code', 'ref', 'reference', 'réf', 'référence', 'code article',
  'art.-nr', 'art.nr', 'art. nr', 'art-nr', 'artnr', 'artikelnummer', 'artikel-nr', 'artikelnr', 'artikel nr',
  'bestellnummer', 'bestell-nr', 'código', 'codigo', 'cód', 'cod', 'código de producto', 'referencia', 'referência',
  'codice', 'codice articolo', 'cod. art', 'kod', 'kód', 'kod produktu', 'kód produktu', 'varenummer', 'varenr',
  'tuotenumero', 'tuotekoodi', 'артикул', 'арт', 'код', 'код товара', 'код товару', 'ürün kodu', 'stok kodu',
  'cikkszám', 'termékkód', 'cod produs', 'kods', 'preces kods', 'prekės kodas', 'tootekood',
  '品番', '商品番号', '商品コード', '商品編號', '商品编号', '货号', '貨號', '型號', '型号', '상품번호', '상품코드', '품번',
]

/** Query parameters that hold a code, most specific first; read only when the path holds none. */
const QUERY_KEYS = ['sku', 'pid', 'productid', 'product_id', 'itemid', 'item_id', 'id', 'item', 'code']

// Page extensions, not part of the code they follow ("…-1609583.html").
const EXTENSION = /\.(?:s?html?|php|aspx?|jsp|do|cfm)$/i
const URL_LIKE = /^(?:[a-z][a-z\d+.-]*:\/\/|\/|www\.)\S*$/i
// Brackets and quotes that may wrap a whole code: 〈M67296549〉, (12345), «A-1», “B2”.
const WRAPPERS = ['()', '[]', '{}', '<>', '〈〉', '《》', '「」', '『』', '【】', '«»', '»«', '‹›', '“”', '„“', '„”', '""', "''", '‘’']

/** A label's pattern: a space in it stands for any spaces; an edge that is a spaced script's letter or digit sits at a word boundary. */
const LABEL: PhraseForm = {
  body: (label) => escapePattern(label).replace(/ /g, '\\s*'),
  edge: needsBoundary,
}

/** A word edge: a label starting or ending in a spaced script's letter or digit stands at a word boundary. */
function needsBoundary(char: string): boolean {
  return ALNUM.test(char) && !UNSPACED.test(char)
}

const labelAlternation = (labels: readonly string[]) => phraseAlternation(labels, LABEL)

// Built on first use: with their Unicode classes they cost more than the rest of the page script to build.
const patterns = once(() => ({
  whole: new RegExp(`^${TOKEN}$`, 'u'),
  tokens: new RegExp(`(?<!${CHAR})${TOKEN}`, 'gu'),
  afterLabel: new RegExp(`${SEPARATORS}(${TOKEN})`, 'uy'),
  afterMark: new RegExp(`[:#]\\s*(${TOKEN})`, 'gu'),
  labelled: new RegExp(`(?:${labelAlternation(LABELS)})${SEPARATORS}(${TOKEN})`, 'giu'),
  // "Item" alone labels a code only right before one (labelled): in a line of its own it is any item.
  labelWord: new RegExp(`(?:${labelAlternation(LABELS.filter((label) => label !== 'item'))})`, 'iu'),
}))

/** Full-width forms as ASCII ("：", "Ｍ６"), № as # (NFKC would spell it "No"), whitespace collapsed. */
function prepare(text: string): string {
  return text.replace(/№/g, '#').normalize('NFKC').replace(/\s+/g, ' ').trim()
}

function unwrap(text: string): string {
  let inner = text
  while (inner.length >= 2 && WRAPPERS.includes(inner[0] + inner[inner.length - 1])) inner = inner.slice(1, -1).trim()
  return inner
}

function codeLike(token: string): boolean {
  if (token.length > MAX_CODE) return false
  return DIGIT.test(token) || (!LOWER.test(token) && token.replace(NOT_ALNUM, '').length >= 6)
}

/** The code of one path segment: the whole segment when it is one token, else the number that ends a slug. */
function codeOfSegment(segment: string): string | undefined {
  const name = segment.replace(EXTENSION, '')
  if (name.includes('=')) return undefined
  if (!/[-_]/.test(name)) return patterns().whole.test(name) && codeLike(name) ? name : undefined
  const parts = name.split(/[-_]+/)
  const number = parts.findLast((part) => /^\d{4,}$/.test(part))
  if (number !== undefined) return number
  return parts.findLast((part) => part.length >= 4 && patterns().whole.test(part) && DIGIT.test(part) && codeLike(part))
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** The code of a product URL: its last path segment holding one (segments like Amazon's "ref=…" are skipped), else a query parameter. */
function codeOfUrl(text: string): string | undefined {
  let url: URL
  try {
    url = new URL(text, 'https://host.invalid/')
  } catch {
    return undefined
  }
  const segments = url.pathname.split('/').filter(Boolean).map(decode)
  for (let index = segments.length - 1; index >= 0; index--) {
    const code = codeOfSegment(segments[index])
    if (code !== undefined) return code
  }
  const params = new Map([...url.searchParams].map(([key, value]) => [key.toLowerCase(), value.trim()]))
  for (const key of QUERY_KEYS) {
    const value = params.get(key)
    if (value !== undefined && patterns().whole.test(value) && codeLike(value)) return value
  }
  return undefined
}

/** The first token after a known label, after a colon or #, or else in the text: with a digit first, then in capitals. */
function codeInText(text: string): string | undefined {
  for (const match of text.matchAll(patterns().labelled)) if (codeLike(match[1])) return match[1]
  for (const match of text.matchAll(patterns().afterMark)) if (codeLike(match[1])) return match[1]
  const tokens = text.match(patterns().tokens) ?? []
  return tokens.find((token) => DIGIT.test(token) && codeLike(token)) ?? tokens.find(codeLike)
}

/**
 * The product code in `text`: the text itself when it is one code ("B08B5WF51D", "(12345)"), the
 * code in a URL or path, the code after a label ("Art.-Nr. 12345", "商品編號：M67296549"), or undefined.
 */
export function codeOf(text: string): string | undefined {
  const written = unwrap(prepare(text))
  if (written === '') return undefined
  if (URL_LIKE.test(written)) return codeOfUrl(written)
  if (patterns().whole.test(written)) return codeLike(written) ? written : undefined
  return codeInText(written)
}

/** Lower case that keeps every index: a character whose lower case is longer ("İ") stays as it is. */
function lowered(text: string): string {
  return text.replace(/[\s\S]/gu, (char) => {
    const lower = char.toLowerCase()
    return lower.length === char.length ? lower : char
  })
}

/**
 * The code that follows `label` in `text` ("Item #: 12-345 (new)" after "Item #" → "12-345"), matched
 * case-blind at word boundaries; undefined when the label is not in the text or no code follows it.
 */
export function codeAfter(text: string, label: string): string | undefined {
  const written = prepare(text)
  const wanted = lowered(prepare(label))
  if (wanted === '') return undefined
  const haystack = lowered(written)
  for (let at = haystack.indexOf(wanted); at !== -1; at = haystack.indexOf(wanted, at + 1)) {
    const end = at + wanted.length
    if (needsBoundary(wanted[0]) && at > 0 && ALNUM.test(haystack[at - 1])) continue
    if (needsBoundary(wanted[wanted.length - 1]) && end < haystack.length && ALNUM.test(haystack[end])) continue
    const { afterLabel } = patterns()
    afterLabel.lastIndex = end
    const match = afterLabel.exec(written)
    if (match && codeLike(match[1])) return match[1]
  }
  return undefined
}

/** Whether the text holds a label of a shop's code ("SKU:", "Art.-Nr. 12345"), with its code or without (then beside it). */
export function hasCodeLabel(text: string): boolean {
  return patterns().labelWord.test(prepare(text))
}
