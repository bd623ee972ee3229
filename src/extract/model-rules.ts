import { z } from 'zod'
import type { Reduction, Rule, RuleType, Rules } from '../../types/index.d.ts'
import { REDUCTIONS } from '../page/reductions.ts'
import { RULE_TYPES } from './validate-rules.ts'

/** A rule as a model may write it: the rule properties and nothing else; null stands for "not set". */
export interface ModelRule {
  selector?: string | null
  selectorAll?: string | null
  attr?: string | string[] | { [field: string]: ModelRule | ModelRule[] } | null
  type?: RuleType | null
  jsonld?: string | null
  meta?: string | null
  json?: string | null
  after?: string | null
  reduce?: Reduction | null
}

/** Fallbacks a model may give one field, tried in order: a page's JSON-LD, then its markup. */
const MAX_FALLBACKS = 4

const modelRule: z.ZodType<ModelRule> = z.lazy(() =>
  // strictObject: any other key, `evaluate` included, fails the reply, so a model never supplies code.
  z.strictObject({
    selector: z.string().nullish(),
    selectorAll: z.string().nullish(),
    attr: z.union([z.string(), z.array(z.string()), z.record(z.string(), fieldRules)]).nullish(),
    type: z.enum(RULE_TYPES as [RuleType, ...RuleType[]]).nullish(),
    // Paths and names, not code: the engine only looks them up in parsed JSON and <meta> tags.
    jsonld: z.string().nullish(),
    meta: z.string().nullish(),
    json: z.string().nullish(),
    after: z.string().nullish(),
    reduce: z.enum(REDUCTIONS as unknown as [Reduction, ...Reduction[]]).nullish(),
  }),
)

// One rule for a field, or a list of fallbacks.
const fieldRules: z.ZodType<ModelRule | ModelRule[]> = z.lazy(() => z.union([modelRule, z.array(modelRule).min(1).max(MAX_FALLBACKS)]))

/** The reply the rule writer asks for. */
export const modelReplySchema = z.strictObject({ rules: z.record(z.string(), fieldRules) })
export type ModelReply = z.infer<typeof modelReplySchema>

/**
 * Model rules as engine rules: nulls dropped, and a rule without `attr` reads the text, not the HTML
 * (a `jsonld` or `meta` rule reads no element, so it gets no `attr`).
 */
export function fromModelRules(rules: Record<string, ModelRule | ModelRule[]>): Rules {
  const out: Rules = {}
  for (const [field, rule] of Object.entries(rules)) out[field] = Array.isArray(rule) ? rule.map(fromModelRule) : fromModelRule(rule)
  return out
}

export function fromModelRule(rule: ModelRule): Rule {
  const out: Rule = {}
  if (rule.selector != null) out.selector = rule.selector
  if (rule.selectorAll != null) out.selectorAll = rule.selectorAll
  if (rule.jsonld != null) out.jsonld = rule.jsonld
  if (rule.meta != null) out.meta = rule.meta
  const attr = rule.attr
  if (attr == null) {
    if (!isMetadataRule(out)) out.attr = 'text'
  } else if (typeof attr === 'string' || Array.isArray(attr)) out.attr = attr
  else out.attr = fromModelRules(attr)
  if (rule.type != null) out.type = rule.type
  for (const key of READINGS) if (rule[key] != null) out[key] = rule[key] as never
  return out
}

/** How a rule reads its value, besides its source, `attr` and `type`. */
export const READINGS = ['json', 'after', 'reduce'] as const

/** Whether a rule reads the page's JSON-LD or `<meta>` tags rather than an element. */
export function isMetadataRule(rule: Rule | ModelRule): boolean {
  return rule.jsonld != null || rule.meta != null
}
