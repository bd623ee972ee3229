import { z } from 'zod'
import type { CacheStore, Rules } from '../../types/index.d.ts'
import type { EngineOutcome } from '../page/rules-engine.ts'
import { log } from '../base/log.ts'
import { readEntry, writeEntry } from './cache-store.ts'
import { cacheKey, pageShape } from './page-shape.ts'

// Rules a model wrote for an instruction, kept for every page of the same template: a later
// extraction runs them with no request as long as they still read what they read when they were
// written. Plain JSON a person can read; anything that does not validate is a miss, never a failure.

export const RULES_ENTRY_VERSION = 1

export interface RulesEntry {
  version: typeof RULES_ENTRY_VERSION
  kind: 'rules'
  instruction: string
  /** The shape of the URL of the page the rules were written for. */
  page: string
  rules: Rules
  /** The fields that had a value on that page (see `foundPaths`): each must have one again for the rules to hold. */
  found: string[]
  savedAt: string
}

/** Throws when rules are not ones the engine runs: the extractor's own check, passed in by it. */
export type ValidateRules = (rules: Rules) => void

/** An entry's shape; its rules pass the engine's checks, as rules a caller passed do. */
function entrySchema(validate: ValidateRules) {
  const storedRules = z.custom<Rules>().superRefine((rules, context) => {
    try {
      validate(rules)
    } catch (error) {
      context.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) })
    }
  })
  return z.object({
    version: z.literal(RULES_ENTRY_VERSION),
    kind: z.literal('rules'),
    instruction: z.string(),
    page: z.string(),
    rules: storedRules,
    found: z.array(z.string()),
    savedAt: z.string(),
  })
}

/** The entry of one extraction: an instruction, the caller's rule skeleton if any, the page's URL. */
export interface RulesCache {
  /** The stored entry, or undefined when there is none or it is not usable (a debug line says why). */
  read(): Promise<RulesEntry | undefined>
  /** Replaces the entry with rules that read `data` (by the built-in engine) on this page. */
  save(rules: Rules, data: Record<string, unknown>): Promise<void>
}

export function rulesCache(store: CacheStore, call: { instruction: string; skeleton: Rules | undefined; url: string }, validate: ValidateRules): RulesCache {
  const page = pageShape(call.url)
  const rulesEntry = entrySchema(validate)
  const key = cacheKey('rules', [call.instruction, call.skeleton ? stableJson(call.skeleton) : '', page])
  return {
    async read() {
      const value = await readEntry(store, key)
      if (value === undefined) return undefined
      const parsed = rulesEntry.safeParse(value)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        log('cache: the rules entry %s is not usable, the model writes rules: %s: %s', key, issue?.path.join('.') || 'entry', issue?.message)
        return undefined
      }
      if (parsed.data.instruction !== call.instruction) {
        log('cache: the rules entry %s was written for another instruction, the model writes rules', key)
        return undefined
      }
      return parsed.data as RulesEntry
    },
    async save(rules, data) {
      const entry: RulesEntry = {
        version: RULES_ENTRY_VERSION,
        kind: 'rules',
        instruction: call.instruction,
        page,
        rules,
        found: foundPaths(data),
        savedAt: new Date().toISOString(),
      }
      await writeEntry(store, key, entry)
    },
  }
}

/**
 * The data the stored rules read now, when they still hold: the engine accepted every selector and
 * every field in `found` has a value (a value the rule's `type` rejects is none: the engine gives
 * null). Otherwise undefined, and a debug line says which field failed.
 */
export function heldData(entry: RulesEntry, outcome: EngineOutcome): Record<string, unknown> | undefined {
  if (!outcome.ok) {
    log('cache: stored rules no longer hold: the selector %s of field "%s" is invalid (%s)', JSON.stringify(outcome.selector), outcome.field, outcome.message)
    return undefined
  }
  const now = new Set(foundPaths(outcome.data))
  const lost = entry.found.find((path) => !now.has(path))
  if (lost !== undefined) {
    log('cache: stored rules no longer hold: field "%s" had a value on %s and has none on this page', lost, entry.page)
    return undefined
  }
  return outcome.data
}

/**
 * The fields of engine data that hold a value, as paths: `price`, `product.name`, and `items[].name`
 * when some item of the list `items` has a name. A field holds a value when anything in it is not null.
 */
export function foundPaths(data: Record<string, unknown>): string[] {
  const paths = new Set<string>()
  holdsValue(data, '', paths)
  return [...paths]
}

function holdsValue(value: unknown, path: string, paths: Set<string>): boolean {
  if (value === null || value === undefined) return false
  // Every item is walked, so that a field found in the third item only is found.
  if (Array.isArray(value)) return value.reduce((any: boolean, item) => holdsValue(item, `${path}[]`, paths) || any, false)
  if (typeof value !== 'object') return true
  let any = false
  for (const [field, inner] of Object.entries(value)) {
    const fieldPath = path === '' ? field : `${path}.${field}`
    if (holdsValue(inner, fieldPath, paths)) {
      paths.add(fieldPath)
      any = true
    }
  }
  return any
}

/** JSON with every object's keys sorted: the same skeleton written in another order is the same key. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>
    // As in JSON.stringify, a key whose value is undefined is left out.
    const entries = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`)
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value)
}
