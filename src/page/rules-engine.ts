import type { Rules } from '../../types/index.d.ts'
import { availabilityOfControl } from './availability.ts'
import { codeAfter } from './codes.ts'
import { attributeOf, innerHtmlOf, outerHtmlOf, queryAll, queryOne } from './dom-safe.ts'
import { forgetJsonLd, readJsonLd } from './json-ld.ts'
import { parseSteps, readsEvery, valuesAt } from './json-path.ts'
import { metaContents } from './meta-tags.ts'
import { reduceValues, type Reduction } from './reductions.ts'
import { convert, numberWithCents } from './rule-values.ts'
import { superscriptCents } from './superscript-cents.ts'
import { markupText } from './text.ts'

/** What one run of the engine gives back to Node: the data, or the first selector the browser refused. */
export type EngineOutcome =
  | { ok: true; data: Record<string, unknown> }
  | { ok: false; field: string; selector: string; message: string }

type AnyRule = {
  selector?: string
  selectorAll?: string
  attr?: string | string[] | AnyRules
  type?: string
  jsonld?: string
  meta?: string
  json?: string
  after?: string
  reduce?: Reduction
}
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
    if (attr === 'html' || attr === 'outerHTML') return page ? outerHtmlOf(page) : null
    if (attr === 'val') return null
    return page ? attributeOf(page, attr) : null
  }
  switch (attr) {
    case 'text':
      return markupText(context)
    case 'html':
      return innerHtmlOf(context)
    case 'outerHTML':
      return outerHtmlOf(context)
    case 'val':
      return 'value' in context && typeof context.value === 'string' ? context.value : attributeOf(context, 'value')
    default:
      return attributeOf(context, attr)
  }
}

// The document's base URL, read once at the start of each run.
let base = ''

/** Longest attribute or text parsed as JSON for a `json` rule: a product's data attribute is a few kilobytes. */
const MAX_JSON_CHARS = 1_000_000

/** The scalars at a `json` rule's path inside the JSON of what it read; none when that is not JSON. */
function jsonValues(raw: string, path: string): (string | number | boolean)[] {
  if (raw.length > MAX_JSON_CHARS) return []
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return []
  }
  const values = valuesAt(data, parseSteps(path))
  return readsEvery(path) ? values : values.slice(0, 1)
}

/** One read value as the rule's type: the code after its label first, when it names one. */
function valueOf(raw: string | number | boolean, rule: AnyRule): unknown {
  // A JSON number is exact as it is: read as text, 1234.567 would be taken for thousands.
  if (typeof raw === 'number' && rule.after === undefined && (rule.type === 'number' || rule.type === undefined)) return Number.isFinite(raw) ? raw : undefined
  let text = String(raw)
  if (rule.after !== undefined) {
    const code = codeAfter(text, rule.after)
    if (code === undefined) return undefined
    text = code
  }
  return convert(text, rule.type, base)
}

/** What a rule reads from one element: the first of its `attr`s that gives a value (several through a `json` path with `[]`). */
function readValues(context: Context, rule: AnyRule): unknown[] {
  const attrs = rule.attr === undefined ? ['html'] : typeof rule.attr === 'string' ? [rule.attr] : (rule.attr as string[])
  for (const attr of attrs) {
    if (attr === 'text' && rule.type === 'number' && rule.json === undefined && rule.after === undefined && context !== null) {
      const price = superscriptCents(context)
      const value = price && numberWithCents(price.whole, price.cents)
      if (value !== undefined) return [value]
    }
    const raw = read(context, attr)
    if (raw === null) continue
    const values = (rule.json === undefined ? [raw] : jsonValues(raw, rule.json)).map((item) => valueOf(item, rule)).filter((value) => value !== undefined)
    if (values.length) return values
  }
  // A buy button says the stock by its state even when its text names none: "Add to cart", greyed out.
  const control = rule.type === 'availability' && context !== null ? availabilityOfControl(context) : undefined
  return control === undefined ? [] : [control]
}

// A JSON-LD or meta rule reads the metadata inside its context, as a selector would: the whole page
// at the top level, each match of the enclosing selectorAll in nested rules.
function readMetadata(context: Context, rule: AnyRule): unknown[] {
  const scope = context ?? document
  const found = rule.jsonld === undefined ? metaContents(scope, rule.meta!) : readJsonLd(scope, rule.jsonld)
  return found.map((item) => valueOf(item, rule)).filter((value) => value !== undefined)
}

/** A rule's values as its field holds them: reduced to one, a list for a rule that reads several, else the first. */
function settle(values: unknown[], rule: AnyRule, list: boolean): unknown {
  if (rule.reduce !== undefined) return reduceValues(values, rule.reduce)
  return list ? values : values[0]
}

// undefined is a miss; so is a list with nothing in it, so the next fallback gets its turn.
function evaluateRule(rule: AnyRule, context: Context): unknown {
  if (rule.jsonld !== undefined || rule.meta !== undefined) return settle(readMetadata(context, rule), rule, rule.jsonld !== undefined && readsEvery(rule.jsonld))
  const nested = rule.attr !== undefined && typeof rule.attr === 'object' && !Array.isArray(rule.attr) ? (rule.attr as AnyRules) : undefined
  if (rule.selectorAll !== undefined) {
    const matches = queryAll(context ?? document, rule.selectorAll)
    const values: unknown[] = []
    for (let index = 0; index < matches.length; index++) {
      if (nested) values.push(evaluateFields(nested, matches[index]))
      else for (const value of readValues(matches[index], rule)) values.push(value)
    }
    return settle(values, rule, true)
  }
  let target = context
  if (rule.selector !== undefined) {
    target = queryOne(context ?? document, rule.selector)
    if (target === null) return undefined
  }
  return nested ? evaluateFields(nested, target) : settle(readValues(target, rule), rule, rule.json !== undefined && readsEvery(rule.json))
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
