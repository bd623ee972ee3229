import { operationsWhere } from '../operations.ts'
import type { LocalAction, LocalElement, LocalState } from './read-state.ts'
import { contentWords, overlap, tokens, type GoalWords } from './words.ts'

// The heuristics of the offline decision model. Scores are log-odds-like numbers that
// `choiceAnswer` turns into probabilities: a gap of 1 between two options is about 2.7 : 1.

const CHANGED = 'page_changed'
// Operations that move a goal on (typing alone does not: it still needs a submit).
const PROGRESS_OPERATIONS = operationsWhere((spec) => spec.activates)
// Input on an element, whose label can make it risky.
const INPUT_OPERATIONS = operationsWhere((spec) => spec.input)
// The risk question's four classes: paying, deleting or overwriting, sending to people, changing access.
// Saving is none of them.
const RISKY = /\b(buy|pay|payment|purchase|checkout|check out|place order|order now|delete|remove|overwrite|erase|send|transfer|confirm|invite|share|grant|revoke)\b/i

/**
 * Probability that the goal is met on this page: its key words are visible, the wording's actions
 * have been taken, and (for a decision, not for the evaluator) the last action changed the page.
 */
export function goalMet(state: LocalState, goal: GoalWords, requireChange: boolean): number {
  const done = progressMade(state)
  // Without key words ("click go") nothing on the page can show the goal met, only the actions taken:
  // before any, it is not met, whatever page this is.
  const visible = goal.key.size === 0 ? (done > 0 ? 0.5 : 0) : overlap(goal.key, visibleText(state)) / goal.key.size
  const progress = done >= goal.actions ? 1 : 0.25
  const last = state.actions.at(-1)
  const changed = !requireChange || last?.outcome === CHANGED ? 1 : 0.3
  return visible * progress * changed
}

/** Actions that moved the goal on: clicks, submits and selections that changed the page. */
function progressMade(state: LocalState): number {
  return state.actions.filter((action) => PROGRESS_OPERATIONS.has(action.operation) && action.outcome === CHANGED).length
}

function visibleText(state: LocalState): string {
  return `${state.pageText} ${[...state.elements.values()].map((element) => element.primary).join(' ')}`
}

export function typedAlready(state: LocalState, goal: GoalWords): boolean {
  if (!goal.quoted) return true
  const wanted = normalize(goal.quoted)
  return state.actions.some((action) => action.operation === 'TYPE_TEXT' && normalize(action.text ?? '') === wanted)
}

/** How well each offered target fits `operation`; earlier options win ties, as "first" usually means. */
export function scoreTargets(
  operation: string | undefined,
  options: readonly string[],
  descriptions: ReadonlyMap<string, string>,
  state: LocalState,
  goal: GoalWords,
): Map<string, number> {
  const last = state.actions.at(-1)
  const lastTyped = [...state.actions].reverse().find((action) => action.operation === 'TYPE_TEXT')
  // The next open checklist item says which control comes first: its words count once more.
  const next = new Set(contentWords(state.openItems[0] ?? ''))
  return new Map(
    options.map((option, index) => {
      const { element, optionText } = lookup(option, state)
      // Without an element behind it, the option's own name is its label.
      const label = `${element ? element.primary : option} ${descriptions.get(option) ?? ''}`
      let score =
        overlap(goal.all, label) + 0.5 * overlap(goal.all, element?.secondary ?? '') + 1.5 * overlap(goal.all, optionText) + 0.5 * overlap(next, `${label} ${optionText}`)
      if (goal.quoted && normalize(label).includes(normalize(goal.quoted))) score += 1
      if (operation === 'TYPE_TEXT') {
        if (element?.typeable) score += 1
        if (goal.quoted && normalize(element?.value ?? '') === normalize(goal.quoted)) score -= 2
      } else if (operation === 'SUBMIT') {
        if (element && lastTyped && sameTarget(element, lastTyped)) score += 3
      } else if (operation === 'CLICK') {
        // A field is clicked to put the caret in it, which this model never needs: it types directly.
        if (element?.typeable) score -= 10
        if (element && state.actions.some((action) => action.operation === 'CLICK' && sameTarget(element, action))) score -= 2
      } else if (operation?.startsWith('SCROLL') && last?.operation === operation && last.outcome !== CHANGED) {
        score -= 2
      }
      return [option, score - index * 0.01] as const
    }),
  )
}

export interface BestTarget {
  option: string
  score: number
}

/** Scores of the offered operations, given the best target each target head offers. */
export function scoreOperations(options: readonly string[], best: ReadonlyMap<string, BestTarget>, state: LocalState, goal: GoalWords): Map<string, number> {
  const met = goalMet(state, goal, true)
  const last = state.actions.at(-1)
  const needsTyping = !typedAlready(state, goal)
  const clickScore = best.get('CLICK')?.score ?? 0
  const selectScore = best.get('SELECT')?.score ?? 0
  const typing = needsTyping && best.has('TYPE_TEXT')
  // Nothing done for the goal yet, and nothing here matches it (about:blank, an error page, a PDF or an
  // image): BLOCKED says so, where waiting changes nothing and DONE would claim a goal it did nothing for.
  // Scrolling, when possible, still comes first: what matches may be further down.
  const stuck = met === 0 && progressMade(state) === 0 && clickScore < 1 && selectScore < 1.5 && !typing
  const scores = new Map<string, number>()
  for (const option of options) {
    const operation = option.toUpperCase()
    scores.set(option, operationScore(operation))
  }
  return scores

  function operationScore(operation: string): number {
    switch (operation) {
      case 'DONE':
        // The page has not shown every checklist item done: DONE would be refused.
        return state.openItems.length > 0 ? -1.5 : 4 * met - 1
      case 'TYPE_TEXT':
        return typing ? 3 : -1
      case 'SUBMIT':
        return last?.operation === 'TYPE_TEXT' ? 3 : -0.5
      case 'CLICK':
        return clickScore >= 1 ? Math.min(3, 1 + clickScore / 2) : 0
      case 'SELECT':
        return selectScore >= 1.5 ? Math.min(2.5, 0.5 + selectScore / 2) : -0.5
      case 'SCROLL_DOWN':
        // Worth a look when nothing in view matches the goal, unless scrolling already changed nothing.
        return clickScore < 1 && !(last?.operation === 'SCROLL_DOWN' && last.outcome !== CHANGED) ? 0.5 : -0.5
      case 'SCROLL_UP':
      case 'WAIT':
        return -1
      case 'BLOCKED':
        return stuck ? 0.25 : -1.5
      default:
        return -2
    }
  }
}

/** P(risky) of an action on `target`: payment, deletion, sending or access words in its label. */
export function riskOf(operation: string | undefined, target: string | undefined, state: LocalState, descriptions?: ReadonlyMap<string, string>): number {
  if (!operation || !INPUT_OPERATIONS.has(operation) || !target) return 0.05
  const { element } = lookup(target, state)
  const label = `${element?.primary ?? ''} ${element?.secondary ?? ''} ${descriptions?.get(target) ?? ''}`
  return RISKY.test(label) ? 0.8 : 0.05
}

/** The element an option names: `e3`, or `e3:o2`-style pairs for SELECT, with the option's text. */
function lookup(option: string, state: LocalState): { element?: LocalElement; optionText: string } {
  const direct = state.elements.get(option)
  if (direct) return { element: direct, optionText: '' }
  const [head, ...rest] = option.split(/[^A-Za-z0-9]+/).filter(Boolean)
  const element = head ? state.elements.get(head) : undefined
  const optionId = rest.join('')
  const optionText = element?.options.find((candidate) => candidate.id === optionId || candidate.id === rest.at(-1))?.text ?? ''
  return { element, optionText }
}

// Action IDs are fresh every observation, so an earlier action is matched by the name it recorded.
function sameTarget(element: LocalElement, action: LocalAction): boolean {
  if (action.targetName && element.name) return normalize(action.targetName) === normalize(element.name)
  return action.target === element.id
}

function normalize(text: string): string {
  return tokens(text).join(' ')
}
