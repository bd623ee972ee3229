import type { Rule, Rules } from '../../types/index.d.ts'

// The same rules in the rule language before issue 28: no `reduce`, `json` or `after`, no `currency`,
// `availability` or `code` types (the text as it stands), and a JSON-LD path's `[]` read as its first
// item. Scoring both in one run shows what the additions are worth on the same outline and rules.

const NEW_TYPES = new Set(['currency', 'availability', 'code'])

function plainRule(rule: Rule): Rule {
  const { reduce: _reduce, json: _json, after: _after, ...rest } = rule
  const plain: Rule = { ...rest }
  if (plain.type && NEW_TYPES.has(plain.type)) delete plain.type
  if (plain.jsonld) plain.jsonld = plain.jsonld.replaceAll('[]', '')
  if (plain.attr && typeof plain.attr === 'object' && !Array.isArray(plain.attr)) plain.attr = plainRules(plain.attr)
  return plain
}

export function plainRules(rules: Rules): Rules {
  return Object.fromEntries(Object.entries(rules).map(([field, value]) => [field, Array.isArray(value) ? value.map(plainRule) : plainRule(value)]))
}
