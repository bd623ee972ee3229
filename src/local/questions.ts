import type { Experimental_DecisionModelV4Question } from '@ai-sdk/provider'
import { OPERATION_NAMES } from '../operations.ts'
import { flatText } from './read-state.ts'

// Sorts the questions of a request by what they ask, from their IDs, options and wording.


export type Classified =
  | { kind: 'operation'; id: string; options: string[] }
  | { kind: 'target'; id: string; operation: string | undefined; options: string[]; descriptions: Map<string, string> }
  | { kind: 'verdict'; id: string; options: string[]; yes: Set<string> }
  | { kind: 'abstain'; id: string; options: string[] }
  | { kind: 'risk' | 'goal_met' | 'boolean'; id: string }
  | { kind: 'score'; id: string; levels: number; aboutGoal: boolean }
  | { kind: 'unsupported'; id: string; type: string }

/** The option of a question that lets a model say nothing. */
export const ABSTAIN = 'none'
const YES = new Set(['yes', 'true', 'met', 'done', 'success', 'passed', 'pass', 'achieved', 'complete', 'completed'])
const NO = new Set(['no', 'false', 'not_met', 'notmet', 'unmet', 'failed', 'fail', 'not_achieved', 'incomplete'])
const RISK_WORDS = /risk|irreversible|payment|purchase|delet|sends?\b|sending|approv/i
const GOAL_WORDS = /goal|met\b|achiev|accomplish|complet|success|satisf|done/i

export function classify(id: string, question: Experimental_DecisionModelV4Question): Classified {
  const wording = `${id} ${flatText(question.instructions ?? '')}`
  switch (question.type) {
    case 'choice': {
      const options = Object.keys(question.criteria)
      const descriptions = new Map(options.map((option) => [option, flatText(question.criteria[option] ?? '')]))
      const upper = options.map((option) => option.toUpperCase())
      if (upper.filter((option) => (OPERATION_NAMES as readonly string[]).includes(option)).length * 2 >= options.length) {
        return { kind: 'operation', id, options }
      }
      const lower = options.map((option) => option.toLowerCase())
      if (options.length === 2 && lower.some((option) => YES.has(option)) && lower.some((option) => NO.has(option))) {
        return { kind: 'verdict', id, options, yes: new Set(options.filter((option) => YES.has(option.toLowerCase()))) }
      }
      // A question that offers to say nothing (which checklist item an action serves, or is wrong): word
      // overlap cannot tell, so it says nothing.
      if (options.includes(ABSTAIN)) return { kind: 'abstain', id, options }
      // Element IDs, element+option pairs, or options of an unknown question: all ranked by word overlap.
      return { kind: 'target', id, operation: operationIn(id) ?? operationIn(wording), options, descriptions }
    }
    case 'boolean': {
      const text = `${wording} ${flatText(question.criteria ?? '')}`
      if (RISK_WORDS.test(text)) return { kind: 'risk', id }
      if (GOAL_WORDS.test(text)) return { kind: 'goal_met', id }
      return { kind: 'boolean', id }
    }
    case 'score':
      return { kind: 'score', id, levels: question.criteria.length, aboutGoal: GOAL_WORDS.test(wording) }
    default:
      return { kind: 'unsupported', id, type: question.type }
  }
}

// Longest names first, so TYPE_TEXT is not read as TYPE and SCROLL_DOWN not as SCROLL.
const BY_LENGTH = [...OPERATION_NAMES].sort((a, b) => b.length - a.length)

function operationIn(text: string): string | undefined {
  const normalized = `_${text.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_`
  const found = BY_LENGTH.find((operation) => normalized.includes(`_${operation}_`))
  if (found) return found
  if (normalized.includes('_TYPE_') || normalized.includes('_TYPETEXT_') || normalized.includes('_TEXT_')) return 'TYPE_TEXT'
  return undefined
}
