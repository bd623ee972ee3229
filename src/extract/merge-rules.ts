import type { Rule, Rules } from '../../types/index.d.ts'
import { UsageError } from '../errors.ts'
import { fromModelRule, isMetadataRule, READINGS, type ModelRule } from './model-rules.ts'

/** Whether a rule says where its value is: a selector, or the JSON-LD or `<meta>` it reads. */
export function hasSource(rule: Rule): boolean {
  return rule.selector !== undefined || rule.selectorAll !== undefined || isMetadataRule(rule)
}

function nestedRules(attr: Rule['attr'] | ModelRule['attr']): Record<string, Rule | Rule[] | ModelRule | ModelRule[]> | undefined {
  return attr !== null && typeof attr === 'object' && !Array.isArray(attr) ? attr : undefined
}

/** Whether rules passed with an instruction leave a source (a selector, JSON-LD or meta) for the model to write. */
export function needsModel(rules: Rules): boolean {
  return Object.values(rules).some((value) => !Array.isArray(value) && !hasSource(value))
}

/**
 * Throws a UsageError when the model would have to complete a list of fallback rules: the fields it
 * fills in are single rules, so a list needs a selector in every rule.
 */
export function checkFillable(rules: Rules, prefix = ''): void {
  for (const [field, value] of Object.entries(rules)) {
    const path = prefix ? `${prefix}.${field}` : field
    if (Array.isArray(value)) {
      if (!value.every(hasSource)) {
        throw new UsageError(
          `Invalid rule for field "${path}": with an instruction, a list of fallback rules needs a selector in every rule ("jsonld" and "meta" count as one).`,
        )
      }
      continue
    }
    const nested = nestedRules(value.attr)
    if (!hasSource(value) && nested) checkFillable(nested as Rules, path)
  }
}

/**
 * Your rules completed by the model's: a rule of yours with a source (selector, `jsonld` or `meta`)
 * stays as it is; otherwise the model's source is taken, and your `type` and `attr` win over the
 * model's, except that a `jsonld` or `meta` source reads no element, so it takes no `attr`. The result
 * has exactly your fields and nesting; a reply that omits one of them or nests where you did not throws.
 */
export function mergeRules(user: Rules, model: Record<string, ModelRule | ModelRule[]>, prefix = ''): Rules {
  const merged: Rules = {}
  for (const [field, value] of Object.entries(user)) {
    const path = prefix ? `${prefix}.${field}` : field
    if (Array.isArray(value) || hasSource(value)) {
      merged[field] = value
      continue
    }
    const reply = Object.hasOwn(model, field) ? model[field] : undefined
    if (!reply) throw new Error(`The model's rules do not match yours: there is no rule for the field "${path}".`)
    // The model may give fallbacks, tried in order: each is completed by your rule the same way.
    merged[field] = Array.isArray(reply) ? reply.map((one) => completed(value, one, path)) : completed(value, reply, path)
  }
  return merged
}

function completed(value: Rule, reply: ModelRule, path: string): Rule {
  const rule: Rule = {}
  if (reply.selectorAll != null) rule.selectorAll = reply.selectorAll
  else if (reply.selector != null) rule.selector = reply.selector
  else if (reply.jsonld != null) rule.jsonld = reply.jsonld
  else if (reply.meta != null) rule.meta = reply.meta
  const yours = nestedRules(value.attr)
  const theirs = nestedRules(reply.attr)
  if (yours) {
    if (!theirs) throw new Error(`The model's rules do not match yours: the field "${path}" has no nested rules for your nested fields.`)
    rule.attr = mergeRules(yours as Rules, theirs as Record<string, ModelRule>, path)
    return rule
  }
  if (theirs) throw new Error(`The model's rules do not match yours: the field "${path}" has nested rules where yours has none.`)
  const fromModel = fromModelRule(reply)
  if (!isMetadataRule(rule)) rule.attr = value.attr ?? fromModel.attr
  const type = value.type ?? fromModel.type
  if (type !== undefined) rule.type = type
  // A JSON path reads an element's attribute: a `jsonld` or `meta` source has none to read.
  for (const key of READINGS) {
    const reading = value[key] ?? fromModel[key]
    if (reading !== undefined && !(key === 'json' && isMetadataRule(rule))) rule[key] = reading as never
  }
  return rule
}
