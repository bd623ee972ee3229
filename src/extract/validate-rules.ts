import type { RuleType, Rules } from '../../types/index.d.ts'
import { clip } from '../clip.ts'
import { UsageError } from '../errors.ts'
import { showValue } from '../base/show-value.ts'
import { JSON_LD_PATH, JSON_PATH } from '../page/json-path.ts'
import { REDUCTIONS } from '../page/reductions.ts'

export const RULE_TYPES: readonly RuleType[] = ['number', 'url', 'image', 'date', 'string', 'currency', 'availability', 'code']
export const RULE_KEYS = ['selector', 'selectorAll', 'attr', 'type', 'jsonld', 'meta', 'json', 'after', 'reduce'] as const
/** Longest `jsonld` or `json` path, `meta` name or `after` label: real ones are under 60 characters; the limit keeps a runaway reply out of messages. */
export const MAX_METADATA_NAME = 200

/** One rule's place in the rules, for error messages: `products.price`, or `title[1]` for the second fallback. */
type FieldPath = string

// Limits on the size of rules, far beyond what a real page needs. The engine walks the rules once per
// element each level matches, so without them a deep or huge set of rules (a mistake, or a model's
// runaway reply) held the page until the protocol timeout.

/**
 * Levels of fields: the top level is 1, each nested `attr` one more. The cells of the rows of the
 * tables in a page's sections are level 4.
 */
export const MAX_RULE_DEPTH = 12
/** Rules in all, nested ones and fallbacks included. The rules for a rich product page are about 50. */
export const MAX_RULES = 300
/**
 * Field names refused. The data is built by assigning fields: `__proto__` would set the object's
 * prototype instead of adding a field (it was silently dropped), and `constructor` and `prototype`
 * would shadow what code reading the data expects of an object.
 */
export const RESERVED_FIELDS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype'])
// A path deep enough to break the depth limit would fill the message.
const PATH_SHOWN = 120

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

/**
 * Checks the shape of rules and throws a UsageError naming the first field that is wrong.
 * Selector syntax needs a CSS parser, so the engine checks it in the page before it reads anything.
 */
export function validateRules(rules: unknown): asserts rules is Rules {
  if (!isPlainObject(rules)) throw new UsageError(`Rules must be an object of fields, got ${showValue(rules)}.`)
  checkSize(rules)
  validateFields(rules, '')
}

/**
 * Throws a UsageError when rules nest deeper than MAX_RULE_DEPTH or hold more than MAX_RULES, before
 * anything walks them recursively. Walks with its own stack, so no nesting overflows it; a rule that
 * contains itself is named as such.
 */
function checkSize(rules: Record<string, unknown>): void {
  // Counting stops here: the exact total no longer matters, and rules shared many times over (the same
  // object nested in itself as two fields, a dozen times) would take ages to count.
  const ceiling = 100_000
  let count = 0
  let deepest = { depth: 0, path: '' }
  // Each fields object with its depth and path; `exit` marks where its subtree ends, for the cycle check.
  type Visit = { fields: Record<string, unknown>; depth: number; prefix: string } | { exit: object }
  const stack: Visit[] = [{ fields: rules, depth: 1, prefix: '' }]
  const open = new Set<object>()
  walk: while (stack.length > 0) {
    const visit = stack.pop()!
    if ('exit' in visit) {
      open.delete(visit.exit)
      continue
    }
    const { fields, depth, prefix } = visit
    if (open.has(fields)) throw new UsageError(`Invalid rule for field "${prefix}": its nested rules contain themselves.`)
    open.add(fields)
    stack.push({ exit: fields })
    if (depth > deepest.depth) deepest = { depth, path: prefix }
    for (const field of Object.keys(fields)) {
      const path = prefix ? `${prefix}.${field}` : field
      const value = fields[field]
      for (const rule of Array.isArray(value) ? value : [value]) {
        count += 1
        if (count > ceiling) break walk
        if (isPlainObject(rule) && isPlainObject(rule.attr)) stack.push({ fields: rule.attr, depth: depth + 1, prefix: path })
      }
    }
  }
  const stopped = count > ceiling
  if (deepest.depth > MAX_RULE_DEPTH) {
    throw new UsageError(
      `Rules nest ${stopped ? 'at least ' : ''}${deepest.depth} levels deep (in field "${clip(deepest.path, PATH_SHOWN)}"); at most ${MAX_RULE_DEPTH} levels are allowed.`,
    )
  }
  if (count > MAX_RULES) {
    const found = stopped ? `more than ${ceiling}` : String(count)
    throw new UsageError(`Rules hold ${found} rules, counting nested rules and fallbacks; at most ${MAX_RULES} are allowed.`)
  }
}

function validateFields(rules: Record<string, unknown>, prefix: string): void {
  const fields = Object.keys(rules)
  if (fields.length === 0) {
    throw new UsageError(prefix ? `Invalid rule for field "${prefix}": nested rules have no fields.` : 'Rules have no fields.')
  }
  for (const field of fields) {
    const path = prefix ? `${prefix}.${field}` : field
    if (RESERVED_FIELDS.has(field)) {
      throw invalid(path, `a field may not be named "${field}" (reserved: ${[...RESERVED_FIELDS].join(', ')})`)
    }
    const value = rules[field]
    if (Array.isArray(value)) {
      if (value.length === 0) throw invalid(path, 'the list of fallback rules is empty')
      value.forEach((rule, index) => validateRule(rule, `${path}[${index}]`))
    } else {
      validateRule(value, path)
    }
  }
}

function validateRule(rule: unknown, path: FieldPath): void {
  if (!isPlainObject(rule)) throw invalid(path, `expected a rule object or a list of rule objects, got ${showValue(rule)}`)
  for (const key of Object.keys(rule)) {
    if (key === 'evaluate') throw invalid(path, '"evaluate" is not supported: rules only read the page, they never run code')
    if (!(RULE_KEYS as readonly string[]).includes(key)) {
      throw invalid(path, `unknown property "${key}" (a rule may only have ${RULE_KEYS.join(', ')})`)
    }
  }
  const { selector, selectorAll, attr, type, jsonld, meta } = rule
  if (selector !== undefined && selectorAll !== undefined) throw invalid(path, 'a rule has either "selector" or "selectorAll", not both')
  if (jsonld !== undefined || meta !== undefined) validateMetadataRule(rule, path)
  for (const [key, value] of [['selector', selector], ['selectorAll', selectorAll]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw invalid(path, `"${key}" must be a non-empty CSS selector, got ${showValue(value)}`)
    }
  }
  if (type !== undefined && !(RULE_TYPES as readonly unknown[]).includes(type)) {
    throw invalid(path, `unknown type ${showValue(type)} (known types: ${RULE_TYPES.join(', ')})`)
  }
  validateReading(rule, path)
  if (attr === undefined) return
  if (typeof attr === 'string') {
    if (attr.trim() === '') throw invalid(path, '"attr" must not be empty')
  } else if (Array.isArray(attr)) {
    if (attr.length === 0) throw invalid(path, '"attr" is an empty list')
    for (const name of attr) {
      if (typeof name !== 'string' || name.trim() === '') {
        throw invalid(path, `every "attr" in a list must be a non-empty string, got ${showValue(name)}`)
      }
    }
  } else if (isPlainObject(attr)) {
    if (type !== undefined) throw invalid(path, '"type" does not apply to nested rules: give each nested field its own type')
    validateFields(attr, path)
  } else {
    throw invalid(path, `"attr" must be a string, a list of strings or nested rules, got ${showValue(attr)}`)
  }
}

/** `json`, `after` and `reduce`: a path, a label and a reduction's name, each data, never code. */
function validateReading(rule: Record<string, unknown>, path: FieldPath): void {
  const { json, after, reduce, attr } = rule
  for (const [key, value] of [['json', json], ['after', after]] as const) {
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') throw invalid(path, `"${key}" must be a non-empty string, got ${showValue(value)}`)
    if (value.length > MAX_METADATA_NAME) throw invalid(path, `"${key}" is ${value.length} characters long; at most ${MAX_METADATA_NAME} are allowed`)
  }
  if (typeof json === 'string') {
    if (!JSON_PATH.test(json)) throw invalid(path, `"json" must be a dotted path such as "sku", "variants[0].sku" or "offers[].price", got ${showValue(json)}`)
    const reserved = json.split(/[.[]/).find((part) => RESERVED_FIELDS.has(part))
    if (reserved) throw invalid(path, `"json" may not step through "${reserved}"`)
  }
  if (reduce !== undefined) {
    if (!(REDUCTIONS as readonly unknown[]).includes(reduce)) throw invalid(path, `unknown reduce ${showValue(reduce)} (known: ${REDUCTIONS.join(', ')})`)
    if (isPlainObject(attr)) throw invalid(path, '"reduce" makes one value of several: it does not apply to nested rules')
  }
  if (isPlainObject(attr) && (json !== undefined || after !== undefined)) throw invalid(path, `"${json !== undefined ? 'json' : 'after'}" reads a value: it does not apply to nested rules`)
}

/** A `jsonld` or `meta` rule names where the value is and nothing else but its `type`. */
function validateMetadataRule(rule: Record<string, unknown>, path: FieldPath): void {
  const key = rule.jsonld !== undefined ? 'jsonld' : 'meta'
  for (const other of ['selector', 'selectorAll', 'attr', 'json', key === 'jsonld' ? 'meta' : 'jsonld']) {
    if (rule[other] !== undefined) throw invalid(path, `a "${key}" rule reads the page's metadata: it has no "${other}"`)
  }
  const name = rule[key]
  if (typeof name !== 'string' || name.trim() === '') throw invalid(path, `"${key}" must be a non-empty string, got ${showValue(name)}`)
  if (name.length > MAX_METADATA_NAME) throw invalid(path, `"${key}" is ${name.length} characters long; at most ${MAX_METADATA_NAME} are allowed`)
  if (key === 'meta') return
  if (!JSON_LD_PATH.test(name)) {
    throw invalid(path, `"jsonld" must be a type and a dotted path such as "Product.offers.price", "Product.image[1]" or "Product.offers[].price", got ${showValue(name)}`)
  }
  const reserved = name.split(/[.[]/).find((part) => RESERVED_FIELDS.has(part))
  if (reserved) throw invalid(path, `"jsonld" may not step through "${reserved}"`)
}

function invalid(path: FieldPath, problem: string): UsageError {
  return new UsageError(`Invalid rule for field "${path}": ${problem}.`)
}
