import type { Rules } from '../../types/index.d.ts'
import { forgetJsonLd, readJsonLd } from './json-ld.ts'
import { metaContents } from './meta-tags.ts'
import { convert, numberWithCents } from './rule-values.ts'
import { superscriptCents } from './superscript-cents.ts'
import { markupText } from './text.ts'

/** What one run of the engine gives back to Node: the data, or the first selector the browser refused. */
export type EngineOutcome =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; field: string; selector: string; message: string }

type AnyRule = { selector?: string; selectorAll?: string; attr?: string | string[] | AnyRules; type?: string; jsonld?: string; meta?: string }
type AnyRules = { [field: string]: AnyRule | AnyRule[] }
type Context = Element | null // null: the whole page

function firstBadSelector(fields: AnyRules, prefix: string, probe: ParentNode): EngineOutcome | undefined {
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
        const bad = firstBadSelector(rule.attr, path, probe)
        if (bad) return bad
      }
    }
  }
  return undefined
}

function read(context: Context, attr: string): string | null {
  if (context === null) {
    const page = document.documentElement
    const body = document.body ?? page
    if (attr === 'text') return body ? markupText(body) : null
    if (attr === 'html' || attr === 'outerHTML') return page ? page.outerHTML : null
    if (attr === 'val') return null
    return page ? page.getAttribute(attr) : null
  }
  switch (attr) {
    case 'text':
      return markupText(context)
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

// The document's base URL, read once at the start of each run.
let base = ''

function readValue(context: Context, rule: AnyRule): unknown {
  const attrs = rule.attr === undefined ? ['html'] : typeof rule.attr === 'string' ? [rule.attr] : (rule.attr as string[])
  for (const attr of attrs) {
    if (attr === 'text' && rule.type === 'number' && context !== null) {
      const price = superscriptCents(context)
      const value = price && numberWithCents(price.whole, price.cents)
      if (value !== undefined) return value
    }
    const raw = read(context, attr)
    if (raw === null) continue
    const value = convert(raw, rule.type, base)
    if (value !== undefined) return value
  }
  return undefined
}

// A JSON-LD or meta rule reads the metadata inside its context, as a selector would: the whole page
// at the top level, each match of the enclosing selectorAll in nested rules.
function readMetadata(context: Context, rule: AnyRule): unknown {
  const scope = context ?? document
  if (rule.jsonld === undefined) {
    for (const text of metaContents(scope, rule.meta!)) {
      const value = convert(text, rule.type, base)
      if (value !== undefined) return value
    }
    return undefined
  }
  const found = readJsonLd(scope, rule.jsonld)
  // A JSON number is exact as it is: read as text, 1234.567 would be taken for thousands.
  if (typeof found === 'number' && (rule.type === 'number' || rule.type === undefined)) return Number.isFinite(found) ? found : undefined
  return found === undefined ? undefined : convert(String(found), rule.type, base)
}

// undefined is a miss; so is a list with nothing in it, so the next fallback gets its turn.
function evaluateRule(rule: AnyRule, context: Context): unknown {
  if (rule.jsonld !== undefined || rule.meta !== undefined) return readMetadata(context, rule)
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

/**
 * The rules engine. It checks every selector first, so a bad one stops the
 * run before anything is read, then reads every field from the live DOM.
 *
 * Expects rules that passed `validateRules`.
 */
export function rulesEngine(rules: Rules): EngineOutcome {
  base = document.baseURI
  const bad = firstBadSelector(rules as AnyRules, '', document.createDocumentFragment())
  if (bad) return bad
  try {
    return { ok: true, data: evaluateFields(rules as AnyRules, null) }
  } finally {
    forgetJsonLd()
  }
}
