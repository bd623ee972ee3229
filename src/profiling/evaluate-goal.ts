import type { Experimental_DecisionModelV4Question, JSONObject } from '@ai-sdk/provider'
import type { Accuracy, TraceEntry } from '../../types/index.d.ts'
import { LIMITS } from '../collector/limits.ts'
import type { Observation } from '../collector/observation.ts'
import { shownValue } from '../collector/shown-value.ts'
import { answersOf, checkBoolean } from '../decision/check-answers.ts'
import { compact } from '../base/compact.ts'
import { tellAction } from '../decision/decision-request.ts'
import { dropFirst, dropLast, fitRequest, REQUEST_LIMITS, shortenText, sizeOf, type Part } from '../decision/request-bounds.ts'
import { callDecisionModel } from '../models/call-decision-model.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../base/ledger.ts'

// The evaluator's one request: the final page, its fields and the actions taken (not the run's own
// DONE, which would only repeat the run's verdict), and one question whether the goal is met.
// Profiling sits above the decision folder: it builds this request with the decision request's
// bounds and telling, sends it as any decision request is sent, and checks the answer the same way.

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
  const fields: Part<JSONObject[]> = { value: filledFields(observation) }
  const actions: Part<JSONObject[]> = { value: actionsTaken(input.trace) }
  const text: Part<string> = { value: observation.text }
  const questions: Record<string, Experimental_DecisionModelV4Question> = {
    [GOAL_MET_QUESTION]: {
      type: 'boolean',
      instructions: 'Is the goal met, judging by the final page, its fields and the actions taken?',
    },
  }
  // The final bound: the page's text gives way first (the largest part, and what escapes inflate), then
  // the oldest actions, then the last fields: what the final page shows filled in is the evidence.
  const state = fitRequest(
    (): JSONObject => ({
      goal: input.goal,
      page: { url: observation.url, title: observation.title, text: text.value },
      fields: fields.value,
      actions: actions.value,
    }),
    (candidate) => sizeOf({ state: candidate, questions }),
    [shortenText(text), dropFirst(actions), dropLast(fields, (field) => field)],
  )
  return { state, questions }
}

/** The fields the final page shows filled in or checked, a value as the decision requests show it. */
function filledFields(observation: Observation): JSONObject[] {
  return observation.elements
    .filter((element) => (element.value !== undefined && element.value !== '') || element.state?.checked !== undefined)
    .map((element) => {
      const chosen = element.options?.find((option) => option.selected)
      return compact({
        name: element.name,
        role: element.role || element.tag,
        ...(chosen ? { value: chosen.label } : shownValue(element, LIMITS.valueLimit)),
        checked: element.state?.checked,
      })
    })
}

/** The latest actions carried out, typed values clipped as the decision requests tell them. */
function actionsTaken(trace: readonly TraceEntry[]): JSONObject[] {
  return (
    trace
      // Discarded (stale) and refused decisions were never carried out, and DONE is the run's own verdict.
      .filter((entry) => !entry.stale && entry.refused === undefined && entry.operation !== 'DONE')
      .slice(-REQUEST_LIMITS.evaluatedActions)
      .map((entry) => tellAction(entry, { page_changed: entry.pageChanged, url: entry.url }))
  )
}

/** `passed` when the evaluator holds the goal more likely met than not. */
export async function evaluateGoal(
  input: EvaluationInput & { settings: Settings; ledger: Ledger },
): Promise<Accuracy> {
  const { state, questions } = evaluationRequest(input)
  const reply = await callDecisionModel({
    model: input.settings.evaluator,
    settings: input.settings,
    ledger: input.ledger,
    purpose: 'evaluation',
    state,
    questions,
  })
  const probability = checkBoolean(answersOf(reply, questions), GOAL_MET_QUESTION, reply.model)
  return { passed: probability > 0.5, probability }
}
