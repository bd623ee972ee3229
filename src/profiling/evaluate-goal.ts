import type { Experimental_DecisionModelV4Question, JSONObject } from '@ai-sdk/provider'
import type { Accuracy, TraceEntry } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import { checkBoolean } from '../decision/check-answers.ts'
import { compact } from '../decision/decision-request.ts'
import { callDecisionModel } from '../models/call-decision-model.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from './ledger.ts'

// The evaluator's one request: the final page, its fields and the actions taken (not the run's own
// DONE, which would only repeat the run's verdict), and one question whether the goal is met.

export const GOAL_MET_QUESTION = 'goal_met'

export interface EvaluationInput {
  goal: string
  observation: Observation
  trace: readonly TraceEntry[]
}

export function evaluationRequest(input: EvaluationInput): {
  state: JSONObject
  questions: Record<string, Experimental_DecisionModelV4Question>
} {
  const { observation } = input
  const fields = observation.elements
    .filter((element) => (element.value !== undefined && element.value !== '') || element.state?.checked !== undefined)
    .map((element) =>
      compact({
        name: element.name,
        role: element.role || element.tag,
        value: element.options?.find((option) => option.selected)?.label ?? element.value,
        checked: element.state?.checked,
      }),
    )
  const actions = input.trace
    // Discarded (stale) decisions were never carried out, and DONE is the run's own verdict.
    .filter((entry) => !entry.stale && entry.operation !== 'DONE')
    .map((entry) =>
      compact({
        operation: entry.operation,
        target_name: entry.targetName,
        option: entry.option,
        text: entry.text,
        page_changed: entry.pageChanged,
        url: entry.url,
      }),
    )
  return {
    state: {
      goal: input.goal,
      page: { url: observation.url, title: observation.title, text: observation.text },
      fields,
      actions,
    },
    questions: {
      [GOAL_MET_QUESTION]: {
        type: 'boolean',
        instructions: 'Is the goal met, judging by the final page, its fields and the actions taken?',
      },
    },
  }
}

/** `passed` when the evaluator holds the goal more likely met than not. */
export async function evaluateGoal(
  input: EvaluationInput & { settings: Settings; ledger: Ledger },
): Promise<Accuracy> {
  const { state, questions } = evaluationRequest(input)
  const probability = await callDecisionModel({
    model: input.settings.evaluator,
    settings: input.settings,
    ledger: input.ledger,
    purpose: 'evaluation',
    state,
    questions,
    read: ({ answers, model }) => checkBoolean(answers, GOAL_MET_QUESTION, model),
  })
  return { passed: probability > 0.5, probability }
}
