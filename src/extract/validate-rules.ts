import type { RuleType, Rules } from '../../types/index.d.ts'
import { UsageError } from '../errors.ts'
import { describe } from '../options.ts'

export const RULE_TYPES: readonly RuleType[] = ['number', 'url', 'image', 'date', 'string']
export const RULE_KEYS = ['selector', 'selectorAll', 'attr', 'type'] as const

/** One rule's place in the rules, for error messages: `products.price`, or `title[1]` for the second fallback. */
type FieldPath = string

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
  if (!isPlainObject(rules)) throw new UsageError(`Rules must be an object of fields, got ${describe(rules)}.`)
  validateFields(rules, '')
}

function validateFields(rules: Record<string, unknown>, prefix: string): void {
  const fields = Object.keys(rules)
  if (fields.length === 0) {
    throw new UsageError(prefix ? `Invalid rule for field "${prefix}": nested rules have no fields.` : 'Rules have no fields.')
  }
  for (const field of fields) {
    const path = prefix ? `${prefix}.${field}` : field
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
  if (!isPlainObject(rule)) throw invalid(path, `expected a rule object or a list of rule objects, got ${describe(rule)}`)
  for (const key of Object.keys(rule)) {
    if (key === 'evaluate') throw invalid(path, '"evaluate" is not supported: rules only read the page, they never run code')
    if (!(RULE_KEYS as readonly string[]).includes(key)) {
      throw invalid(path, `unknown property "${key}" (a rule may only have ${RULE_KEYS.join(', ')})`)
    }
  }
  const { selector, selectorAll, attr, type } = rule
  if (selector !== undefined && selectorAll !== undefined) throw invalid(path, 'a rule has either "selector" or "selectorAll", not both')
  for (const [key, value] of [['selector', selector], ['selectorAll', selectorAll]] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw invalid(path, `"${key}" must be a non-empty CSS selector, got ${describe(value)}`)
    }
  }
  if (type !== undefined && !(RULE_TYPES as readonly unknown[]).includes(type)) {
    throw invalid(path, `unknown type ${describe(type)} (known types: ${RULE_TYPES.join(', ')})`)
  }
  if (attr === undefined) return
  if (typeof attr === 'string') {
    if (attr.trim() === '') throw invalid(path, '"attr" must not be empty')
  } else if (Array.isArray(attr)) {
    if (attr.length === 0) throw invalid(path, '"attr" is an empty list')
    for (const name of attr) {
      if (typeof name !== 'string' || name.trim() === '') {
        throw invalid(path, `every "attr" in a list must be a non-empty string, got ${describe(name)}`)
      }
    }
  } else if (isPlainObject(attr)) {
    if (type !== undefined) throw invalid(path, '"type" does not apply to nested rules: give each nested field its own type')
    validateFields(attr, path)
  } else {
    throw invalid(path, `"attr" must be a string, a list of strings or nested rules, got ${describe(attr)}`)
  }
}

function invalid(path: FieldPath, problem: string): UsageError {
  return new UsageError(`Invalid rule for field "${path}": ${problem}.`)
}
