import { UsageError } from '../errors.ts'
import { showValue } from '../base/show-value.ts'
import { DEFAULTS, parseOptions, type Settings } from '../options.ts'
import { isPlainObject, RULE_KEYS } from './validate-rules.ts'

/** A call to `extract`, sorted out from its arguments. Rules are not checked here: that depends on the engine. */
export interface ExtractCall {
  /** Absent when the caller passed rules alone. */
  instruction: string | undefined
  rules: unknown
  options: Partial<Settings>
}

const OPTION_NAMES = new Set(Object.keys(DEFAULTS))

/**
 * `(rules, options?)`, `(instruction, rules?, options?)` or `(instruction, options?)`.
 * Throws a UsageError for anything else, naming what was wrong.
 */
export function parseExtractArgs(args: readonly unknown[]): ExtractCall {
  const [first, second, third] = args
  if (typeof first === 'string') {
    const instruction = first.trim()
    if (instruction === '') throw new UsageError('page.extract(instruction): the instruction is empty.')
    if (args.length > 3) throw new UsageError(`page.extract(instruction, rules?, options?) takes at most 3 arguments, got ${args.length}.`)
    if (args.length <= 2 && (isPlainObject(second) && (Object.keys(second).length === 0 || looksLikeOptions(second)))) {
      return { instruction, rules: undefined, options: parseOptions(second, 'page.extract(instruction, options)') }
    }
    const rules = second ?? undefined
    if (rules !== undefined && !isPlainObject(rules)) {
      throw new UsageError(`page.extract(instruction, rules?, options?): rules must be an object of fields, got ${showValue(rules)}.`)
    }
    return { instruction, rules, options: parseOptions(third, 'page.extract(instruction, rules, options)') }
  }
  if (first === undefined || first === null) {
    throw new UsageError(`page.extract() needs rules (an object) or an instruction (a string), got ${showValue(first)}.`)
  }
  if (!isPlainObject(first)) {
    throw new UsageError(`page.extract() takes rules (an object) or an instruction (a string) first, got ${showValue(first)}.`)
  }
  if (args.length > 2) throw new UsageError(`page.extract(rules, options?) takes at most 2 arguments, got ${args.length}.`)
  if (looksLikeOptions(first)) {
    throw new UsageError(
      `page.extract(rules, options?): got options (${Object.keys(first).join(', ')}) where the rules belong; pass the rules first and the options last.`,
    )
  }
  return { instruction: undefined, rules: first, options: parseOptions(second, 'page.extract(rules, options)') }
}

/**
 * Every key is an option name and no value is shaped like a rule, so `{ text: { selector: 'p' } }`
 * stays a field called "text".
 */
function looksLikeOptions(value: Record<string, unknown>): boolean {
  const entries = Object.entries(value)
  return entries.length > 0 && entries.every(([key, item]) => OPTION_NAMES.has(key) && !isRuleLike(item))
}

function isRuleLike(value: unknown): boolean {
  if (Array.isArray(value)) return true
  return isPlainObject(value) && Object.keys(value).every((key) => (RULE_KEYS as readonly string[]).includes(key) || key === 'evaluate')
}
