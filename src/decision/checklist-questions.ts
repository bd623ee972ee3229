import type { Experimental_DecisionModelV4Question } from '@ai-sdk/provider'
import type { ChecklistDispute } from '../../types/index.d.ts'
import type { ChecklistLine, Decision } from './decision.ts'

// The two questions a decision request asks about the goal's checklist, beside the action: which
// judgment item the action carries out (a step known only now: "open the first result"), and whether
// an open item is wrong for the page (a guessed wording the page never uses). Answers are IDs and
// fixed reasons, never the model's own words; neither makes an item done (the tracker decides that
// from what the page shows).

export const SERVES_QUESTION = 'serves'
export const DISPUTE_QUESTION = 'dispute'
/** The option of both questions that says nothing about the checklist: listed first. */
export const NO_ITEM = 'none'

/** Each reason a dispute may give, as the request and the checklist's evidence say it. */
export const DISPUTE_REASONS: Record<ChecklistDispute, string> = {
  other_wording: 'the page says it in other words than the item expects',
  no_such_control: 'the page has no such control, and the goal does not need one',
  not_needed: 'the goal does not ask for it',
}
const REASONS = Object.keys(DISPUTE_REASONS) as ChecklistDispute[]

/** The checklist questions a request asks: only those with an item to name. */
export function checklistQuestions(lines: readonly ChecklistLine[]): Record<string, Experimental_DecisionModelV4Question> {
  const questions: Record<string, Experimental_DecisionModelV4Question> = {}
  const judgments = servable(lines)
  if (judgments.length > 0) {
    questions[SERVES_QUESTION] = {
      type: 'choice',
      instructions:
        'If the operation is a CLICK, SUBMIT, SELECT or PRESS Enter on an element: does that action carry out one of the judgment items of state.checklist (by its id)? Answer none when it does not, and for any other operation. The item is checked only when the input lands and the page changes; typing checks none.',
      criteria: Object.fromEntries([[NO_ITEM, null], ...judgments.map((line) => [line.id, line.item] as const)]),
    }
  }
  const open = disputable(lines)
  if (open.length > 0) {
    const reasons = REASONS.map((reason) => `${reason}: ${DISPUTE_REASONS[reason]}`).join('; ')
    questions[DISPUTE_QUESTION] = {
      type: 'choice',
      instructions: `Is an open item of state.checklist wrong for this page, so that it cannot come true even when the goal is reached? Answer <item id>:<reason> (${reasons}), or none. A disputed item no longer holds DONE back, but the run is then not verified; answer none unless the page shows the item is wrong.`,
      criteria: Object.fromEntries([[NO_ITEM, null], ...open.flatMap((line) => REASONS.map((reason) => [`${line.id}:${reason}`, null] as const))]),
    }
  }
  return questions
}

/**
 * The checklist answers of a decision, from the options the model chose (`undefined` when a question
 * was not asked). A serves answer counts only for an action on an element.
 */
export function checklistAnswers(
  serves: string | undefined,
  dispute: string | undefined,
  onElement: boolean,
): Pick<Decision, 'serves' | 'dispute'> {
  const answers: Pick<Decision, 'serves' | 'dispute'> = {}
  if (serves !== undefined && serves !== NO_ITEM && onElement) answers.serves = serves
  if (dispute !== undefined && dispute !== NO_ITEM) {
    const [item, reason] = dispute.split(':') as [string, ChecklistDispute]
    answers.dispute = { item, reason }
  }
  return answers
}

function servable(lines: readonly ChecklistLine[]): readonly ChecklistLine[] {
  return lines.filter((line) => line.status === 'judgment' && !line.disputed)
}

function disputable(lines: readonly ChecklistLine[]): readonly ChecklistLine[] {
  return lines.filter((line) => line.status === 'open')
}
