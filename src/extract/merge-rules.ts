import type { Rule, Rules } from '../../types/index.d.ts'
import { UsageError } from '../errors.ts'
import { fromModelRule, type ModelRule } from './model-rules.ts'

export function hasSelector(rule: Rule): boolean {
  return rule.selector !== undefined || rule.selectorAll !== undefined
}

function nestedRules(attr: Rule['attr'] | ModelRule['attr']): Record<string, Rule | Rule[] | ModelRule> | undefined {
  return attr !== null && typeof attr === 'object' && !Array.isArray(attr) ? attr : undefined
}

/** Whether rules passed with an instruction leave a selector for the model to write. */
export function needsModel(rules: Rules): boolean {
  return Object.values(rules).some((value) => !Array.isArray(value) && !hasSelector(value))
}

/**
 * Throws a UsageError when the model would have to complete a list of fallback rules: the fields it
 * fills in are single rules, so a list needs a selector in every rule.
 */
export function checkFillable(rules: Rules, prefix = ''): void {
  for (const [field, value] of Object.entries(rules)) {
    const path = prefix ? `${prefix}.${field}` : field
    if (Array.isArray(value)) {
      if (!value.every(hasSelector)) {
        throw new UsageError(`Invalid rule for field "${path}": with an instruction, a list of fallback rules needs a selector in every rule.`)
      }
      continue
    }
    const nested = nestedRules(value.attr)
    if (!hasSelector(value) && nested) checkFillable(nested as Rules, path)
  }
}

/**
 * Your rules completed by the model's: a rule of yours with a selector stays as it is; otherwise
 * the model's selector is taken, and your `type` and `attr` win over the model's. The result has
 * exactly your fields and nesting; a reply that omits one of them or nests where you did not throws.
 */
export function mergeRules(user: Rules, model: Record<string, ModelRule>, prefix = ''): Rules {
  const merged: Rules = {}
  for (const [field, value] of Object.entries(user)) {
    const path = prefix ? `${prefix}.${field}` : field
    if (Array.isArray(value) || hasSelector(value)) {
      merged[field] = value
      continue
    }
    const reply = Object.hasOwn(model, field) ? model[field] : undefined
    if (!reply) throw new Error(`The model's rules do not match yours: there is no rule for the field "${path}".`)
    const rule: Rule = {}
    if (reply.selectorAll != null) rule.selectorAll = reply.selectorAll
    else if (reply.selector != null) rule.selector = reply.selector
    const yours = nestedRules(value.attr)
    const theirs = nestedRules(reply.attr)
    if (yours) {
      if (!theirs) throw new Error(`The model's rules do not match yours: the field "${path}" has no nested rules for your nested fields.`)
      rule.attr = mergeRules(yours as Rules, theirs as Record<string, ModelRule>, path)
    } else {
      if (theirs) throw new Error(`The model's rules do not match yours: the field "${path}" has nested rules where yours has none.`)
      const fromModel = fromModelRule(reply)
      rule.attr = value.attr ?? fromModel.attr
      const type = value.type ?? fromModel.type
      if (type !== undefined) rule.type = type
    }
    merged[field] = rule
  }
  return merged
}
