import type { Rules } from '../../types/index.d.ts'

/** What one run of the engine gives back to Node: the data, or the first selector the browser refused. */
export type EngineOutcome =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; field: string; selector: string; message: string }

/**
 * The rules engine. Runs inside the page (passed to `evaluate`), so it is self-contained: no
 * imports and nothing from module scope. It checks every selector first, so a bad one stops the
 * run before anything is read, then reads every field from the live DOM.
 *
 * Expects rules that passed `validateRules`.
 */
export function rulesEngine(rules: Rules): EngineOutcome {
  type AnyRule = { selector?: string; selectorAll?: string; attr?: string | string[] | AnyRules; type?: string }
  type AnyRules = { [field: string]: AnyRule | AnyRule[] }
  type Context = Element | null // null: the whole page

  // Elements whose edges separate words in rendered text; tag names alone decide, so no layout is needed.
  const BLOCK = new Set([
    'address', 'article', 'aside', 'blockquote', 'dd', 'details', 'dialog', 'div', 'dl', 'dt', 'fieldset',
    'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main',
    'nav', 'ol', 'option', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
  ])
  const HIDDEN = new Set(['script', 'style', 'noscript', 'template'])
  const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec']
  const MONTH = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\\.?'
  const YEAR = /(^|\D)\d{4}(\D|$)/
  const YEAR_FIRST = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/
  const YEAR_LAST = /(?<!\d)(\d{1,2})([-/.])(\d{1,2})\2(\d{4})(?!\d)/
  const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'i')
  const DAY_MONTH_YEAR = new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH},?\\s+(\\d{4})(?!\\d)`, 'i')
  const MONTH_YEAR = new RegExp(`\\b${MONTH}\\s+(\\d{4})(?!\\d)`, 'i')
  const TIME = /^(?:T|,?\s*(?:at\s+)?)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?\s*(am|pm)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?/i

  const probe = document.createDocumentFragment()
  const base = document.baseURI

  function firstBadSelector(fields: AnyRules, prefix: string): EngineOutcome | undefined {
    for (const field of Object.keys(fields)) {
      const value = fields[field]
      const list = Array.isArray(value) ? value : [value]
      for (let index = 0; index < list.length; index++) {
        const rule = list[index]
        const path = (prefix ? `${prefix}.${field}` : field) + (Array.isArray(value) ? `[${index}]` : '')
        const selector = rule.selector ?? rule.selectorAll
        if (selector !== undefined) {
          try {
            probe.querySelector(selector)
          } catch (error) {
            return { ok: false, field: path, selector, message: error instanceof Error ? error.message : String(error) }
          }
        }
        if (rule.attr && typeof rule.attr === 'object' && !Array.isArray(rule.attr)) {
          const bad = firstBadSelector(rule.attr, path)
          if (bad) return bad
        }
      }
    }
    return undefined
  }

  function textOf(root: Node): string {
    let out = ''
    const walk = (node: Node) => {
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child.nodeType === 3) {
          out += (child as Text).data
        } else if (child.nodeType === 1) {
          const tag = (child as Element).localName
          if (HIDDEN.has(tag)) continue
          if (tag === 'br') {
            out += ' '
            continue
          }
          const block = BLOCK.has(tag)
          if (block) out += ' '
          walk(child)
          if (block) out += ' '
        }
      }
    }
    walk(root)
    return out.replace(/\s+/g, ' ').trim()
  }

  function read(context: Context, attr: string): string | null {
    if (context === null) {
      const page = document.documentElement
      const body = document.body ?? page
      if (attr === 'text') return body ? textOf(body) : null
      if (attr === 'html' || attr === 'outerHTML') return page ? page.outerHTML : null
      if (attr === 'val') return null
      return page ? page.getAttribute(attr) : null
    }
    switch (attr) {
      case 'text':
        return textOf(context)
      case 'html':
        return context.innerHTML
      case 'outerHTML':
        return context.outerHTML
      case 'val':
        return 'value' in context && typeof context.value === 'string' ? context.value : context.getAttribute('value')
      default:
        return context.getAttribute(attr)
    }
  }

  function parseNumber(text: string): number | undefined {
    const match = /([-\u2212]?)(\d[\d.,]*)/.exec(text)
    if (!match) return undefined
    // A dash glued to a word ("SKU-12") is a hyphen, not a sign.
    const before = text[match.index - 1]
    const negative = match[1] !== '' && !(before && /[\p{L}\p{N}]/u.test(before))
    const digits = match[2].split(/[.,]{2,}/)[0].replace(/[.,]+$/, '')
    const separators = digits.match(/[.,]/g) ?? []
    let value: number
    if (separators.length === 0) {
      value = Number(digits)
    } else if (digits.includes('.') && digits.includes(',')) {
      // Both kinds: the last one is the decimal separator.
      const last = Math.max(digits.lastIndexOf('.'), digits.lastIndexOf(','))
      value = Number(`${digits.slice(0, last).replace(/[.,]/g, '')}.${digits.slice(last + 1)}`)
    } else {
      const groups = digits.split(/[.,]/)
      if (groups.length > 2) {
        value = groups.slice(1).every((group) => group.length === 3) ? Number(groups.join('')) : readSingle(groups[0], groups[1])
      } else {
        value = readSingle(groups[0], groups[1])
      }
    }
    if (!Number.isFinite(value)) return undefined
    return negative ? -value : value
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

  function toUrl(text: string, image: boolean): string | undefined {
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

  function convert(raw: string, type: string | undefined): unknown {
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
        return toUrl(text, false)
      case 'image':
        return toUrl(text, true)
      case 'date':
        return parseDate(text)
      default:
        throw new Error(`Unknown rule type "${type}"`)
    }
  }

  function readValue(context: Context, rule: AnyRule): unknown {
    const attrs = rule.attr === undefined ? ['html'] : typeof rule.attr === 'string' ? [rule.attr] : (rule.attr as string[])
    for (const attr of attrs) {
      const raw = read(context, attr)
      if (raw === null) continue
      const value = convert(raw, rule.type)
      if (value !== undefined) return value
    }
    return undefined
  }

  // undefined is a miss; so is a list with nothing in it, so the next fallback gets its turn.
  function evaluateRule(rule: AnyRule, context: Context): unknown {
    const nested = rule.attr !== undefined && typeof rule.attr === 'object' && !Array.isArray(rule.attr) ? (rule.attr as AnyRules) : undefined
    if (rule.selectorAll !== undefined) {
      const matches = (context ?? document).querySelectorAll(rule.selectorAll)
      const values: unknown[] = []
      for (let index = 0; index < matches.length; index++) {
        const value = nested ? evaluateFields(nested, matches[index]) : readValue(matches[index], rule)
        if (value !== undefined) values.push(value)
      }
      return values
    }
    let target = context
    if (rule.selector !== undefined) {
      target = (context ?? document).querySelector(rule.selector)
      if (target === null) return undefined
    }
    return nested ? evaluateFields(nested, target) : readValue(target, rule)
  }

  function evaluateFields(fields: AnyRules, context: Context): Record<string, unknown> {
    const data: Record<string, unknown> = {}
    for (const field of Object.keys(fields)) {
      const value = fields[field]
      const list = Array.isArray(value) ? value : [value]
      let result: unknown
      for (const rule of list) {
        result = evaluateRule(rule, context)
        if (result !== undefined && !(Array.isArray(result) && result.length === 0)) break
      }
      // A field that missed everywhere keeps the shape of its first rule.
      data[field] = result !== undefined && !(Array.isArray(result) && result.length === 0) ? result : list[0].selectorAll !== undefined ? [] : null
    }
    return data
  }

  const bad = firstBadSelector(rules as AnyRules, '')
  if (bad) return bad
  return { ok: true, data: evaluateFields(rules as AnyRules, null) }
}
