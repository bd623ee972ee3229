// How the rules engine turns the text it read into a rule's type: number, date, URL, image, a
// currency's code, an availability, a product code, or a plain value. Runs in the page; no layout
// is read.

import { availabilityOfText } from './availability.ts'
import { codeOf } from './codes.ts'
import { currencyOf } from './currency.ts'

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?'
const YEAR = /(^|\D)\d{4}(\D|$)/
const YEAR_FIRST = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/
const YEAR_LAST = /(?<!\d)(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?!\d)/
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'i')
const DAY_MONTH_YEAR = new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})(?!\\d)`, 'i')
const MONTH_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{4})(?!\\d)`, 'i')
const TIME = /^(?:T|,?\s*(?:at\s+)?)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?\s*(am|pm)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?/i

// Separators of thousands that are never decimal: space, no-break space (U+00A0), narrow no-break
// space (U+202F, French), thin space (U+2009), and the apostrophes of Swiss prices ("1'299.00").
const GROUP = "[ \\u00a0\\u202f\\u2009'\\u2019]"
// The first number: either one to three digits followed by groups of exactly three digits after a
// GROUP separator, with an optional decimal part ("131 990", "1 299,00"), or digits with . and ,.
const NUMBER = new RegExp(`([-\\u2212]?)(?:(\\d{1,3}(?:${GROUP}\\d{3}(?!\\d))+(?:[.,]\\d+)?)|(\\d[\\d.,]*))`)

interface FoundNumber {
  negative: boolean
  /** Digits and separators as written, GROUP separators removed; `grouped` says there were some. */
  digits: string
  grouped: boolean
  /** Where the number ends in the text. */
  end: number
}

function findNumber(text: string): FoundNumber | undefined {
  const match = NUMBER.exec(text)
  if (!match) return undefined
  // A dash glued to a word ("SKU-12") is a hyphen, not a sign.
  const before = text[match.index - 1]
  const negative = match[1] !== '' && !(before && /[\p{L}\p{N}]/u.test(before))
  const grouped = match[2] !== undefined
  const digits = grouped ? match[2].replace(new RegExp(GROUP, 'g'), '') : match[3]
  return { negative, digits, grouped, end: match.index + match[0].length }
}

function parseNumber(text: string): number | undefined {
  const found = findNumber(text)
  if (!found) return undefined
  // After groups of thousands, a remaining . or , can only be the decimal separator.
  const value = found.grouped ? Number(found.digits.replace(',', '.')) : readSeparators(found.digits)
  if (!Number.isFinite(value)) return undefined
  return found.negative ? -value : value
}

function readSeparators(written: string): number {
  const digits = written.split(/[.,]{2,}/)[0].replace(/[.,]+$/, '')
  const separators = digits.match(/[.,]/g) ?? []
  if (separators.length === 0) return Number(digits)
  if (digits.includes('.') && digits.includes(',')) {
    // Both kinds: the last one is the decimal separator.
    const last = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','))
    return Number(`${digits.slice(0, last).replace(/[.,]/g, '')}.${digits.slice(last + 1)}`)
  }
  const groups = digits.split(/[.,]/)
  if (groups.length > 2) {
    return groups.slice(1).every((group) => group.length === 3) ? Number(groups.join('')) : readSingle(groups[0], groups[1])
  }
  return readSingle(groups[0], groups[1])
}

/**
 * A price written with its cents as a superscript ("173<sup>34</sup> Lei"): `whole` is the text up to
 * the superscript, `cents` its digits. When the first number of `whole` runs to its end, every
 * separator in it is a thousands separator and the cents are the decimals; otherwise the superscript
 * is not part of the first number, which is read as usual.
 */
export function numberWithCents(whole: string, cents: string): number | undefined {
  const found = findNumber(whole)
  if (!found || found.end !== whole.length) return parseNumber(whole)
  const value = Number(`${found.digits.replace(/[.,]/g, '')}.${cents}`)
  if (!Number.isFinite(value)) return undefined
  return found.negative ? -value : value
}

// One separator: thousands when exactly three digits follow and the whole part is not zero ("3.142", "16.690").
function readSingle(whole: string, part: string): number {
  return part.length === 3 && /[1-9]/.test(whole) ? Number(whole + part) : Number(`${whole}.${part}`)
}

function parseDate(text: string): string | undefined {
  if (!YEAR.test(text)) return undefined
  let year: number
  let month: number
  let day: number
  let found = YEAR_FIRST.exec(text)
  if (found) {
    ;[year, month, day] = [Number(found[1]), Number(found[2]), Number(found[3])]
  } else if ((found = YEAR_LAST.exec(text))) {
    // Slashes read month first, as in the US, unless that cannot be a date; dots and dashes read day first.
    const [a, b] = [Number(found[1]), Number(found[3])]
    const monthFirst = found[2] === '/' && a <= 12
    ;[year, month, day] = [Number(found[4]), monthFirst ? a : b, monthFirst ? b : a]
  } else if ((found = MONTH_DAY_YEAR.exec(text))) {
    ;[year, month, day] = [Number(found[3]), MONTHS.indexOf(found[1].toLowerCase()) + 1, Number(found[2])]
  } else if ((found = DAY_MONTH_YEAR.exec(text))) {
    ;[year, month, day] = [Number(found[3]), MONTHS.indexOf(found[2].toLowerCase()) + 1, Number(found[1])]
  } else if ((found = MONTH_YEAR.exec(text))) {
    ;[year, month, day] = [Number(found[2]), MONTHS.indexOf(found[1].toLowerCase()) + 1, 1]
  } else {
    return undefined
  }
  const rest = text.slice(found.index + found[0].length)
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
  let hours = 0
  let minutes = 0
  let seconds = 0
  let millis = 0
  let offset = 0
  const time = TIME.exec(rest)
  if (time) {
    hours = Number(time[1])
    minutes = Number(time[2])
    seconds = Number(time[3] ?? 0)
    millis = Number((time[4] ?? '0').padEnd(3, '0'))
    const half = time[5]?.toLowerCase()
    if (half && (hours < 1 || hours > 12)) return undefined
    if (half === 'pm' && hours < 12) hours += 12
    if (half === 'am' && hours === 12) hours = 0
    const zone = time[6]
    if (zone && /^[+-]/.test(zone)) {
      const sign = zone[0] === '-' ? -1 : 1
      const numbers = zone.slice(1).replace(':', '')
      offset = sign * (Number(numbers.slice(0, 2)) * 60 + Number(numbers.slice(2)))
    }
    if (hours > 23 || minutes > 59 || seconds > 59) return undefined
  }
  // Without a zone, times are read as UTC so the result is the same on every machine.
  const ms = Date.UTC(year, month - 1, day, hours, minutes, seconds, millis) - offset * 60_000
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
}

function toUrl(text: string, image: boolean, base: string): string | undefined {
  // An image may be a srcset: take its first candidate (a data URL's own comma is not followed by a space).
  const candidate = image ? text.split(/\s+/)[0].replace(/,$/, '') : text
  if (/\s/.test(candidate)) return undefined
  let url: URL
  try {
    url = new URL(candidate, base)
  } catch {
    return undefined
  }
  const scheme = url.protocol
  if (scheme === 'javascript:' || scheme === 'vbscript:') return undefined
  if (image && !(scheme === 'http:' || scheme === 'https:' || scheme === 'blob:' || (scheme === 'data:' && /^data:image\//i.test(url.href)))) {
    return undefined
  }
  return url.href
}

/** `base` is the document's base URL, read once per run. */
export function convert(raw: string, type: string | undefined, base: string): unknown {
  const text = raw.trim()
  if (text === '') return undefined
  switch (type) {
    case undefined:
      if (text === 'true') return true
      if (text === 'false') return false
      // Leading zeros ("007", zip codes) and integers too big to keep exactly stay strings.
      if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) {
        const value = Number(text)
        return Number.isInteger(value) && !Number.isSafeInteger(value) ? text : value
      }
      return text
    case 'string':
      return text
    case 'number':
      return parseNumber(text)
    case 'url':
      return toUrl(text, false, base)
    case 'image':
      return toUrl(text, true, base)
    case 'date':
      return parseDate(text)
    case 'currency':
      return currencyOf(text)
    case 'availability':
      return availabilityOfText(text)
    case 'code':
      return codeOf(text)
    default:
      throw new Error(`Unknown rule type "${type}"`)
  }
}
