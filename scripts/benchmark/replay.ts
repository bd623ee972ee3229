import type { Operation } from '../../types/index.d.ts'
import { readDecision } from '../../src/decision/decide-step.ts'
import type { Decision } from '../../src/decision/decision.ts'
import {
  OPERATION_QUESTION,
  type DecisionRequest,
  type TargetChoice,
  type TargetHead,
} from '../../src/decision/decision-request.ts'
import { decideWithText } from '../../src/decision/text-decision.ts'
import { specOf } from '../../src/operations.ts'
import { callDecisionModel } from '../../src/models/call-decision-model.ts'
import type { Settings } from '../../src/options.ts'
import { createLedger } from '../../src/base/ledger.ts'
import { messageOf } from '../common/message.ts'
import type { RecordedRequest } from './recording.ts'
import { agreement, type ReferenceAnswer, type ReplayResult } from './summary.ts'

/** A model that answers the recorded requests again. */
export interface Decider {
  /** How the results name it: the model id as given on the command line. */
  name: string
  /** A gateway id, `local`, or an AI SDK model instance. */
  model: string | object
  /** `decision`: answers through experimental_decide; `language`: the `decisions: false` path. */
  kind: 'decision' | 'language'
}

// Target heads are named `<operation>_target`, and SELECT options `<element>:<option>` (decision-request.ts).
const TARGET_SUFFIX = '_target'

/** The request the agent built, rebuilt from what the model saw: the offered operations, target heads and detail heads. */
export function requestOf(recorded: Pick<RecordedRequest, 'state' | 'questions'>): DecisionRequest {
  const operationQuestion = recorded.questions[OPERATION_QUESTION]
  if (operationQuestion?.type !== 'choice') {
    throw new Error(`The recorded request has no "${OPERATION_QUESTION}" choice question (questions: ${Object.keys(recorded.questions).join(', ')}).`)
  }
  const operations = Object.keys(operationQuestion.criteria) as Operation[]
  const heads: Partial<Record<Operation, TargetHead>> = {}
  for (const [id, question] of Object.entries(recorded.questions)) {
    if (!id.endsWith(TARGET_SUFFIX) || question.type !== 'choice') continue
    const operation = id.slice(0, -TARGET_SUFFIX.length).toUpperCase() as Operation
    const options = new Map<string, TargetChoice>(
      Object.keys(question.criteria).map((key) => {
        const split = operation === 'SELECT' ? key.indexOf(':') : -1
        return [key, split > 0 ? { target: key.slice(0, split), option: key.slice(split + 1) } : { target: key }]
      }),
    )
    heads[operation] = { question: id, options }
  }
  const details: DecisionRequest['details'] = {}
  for (const operation of operations) {
    const detail = specOf(operation).detail
    if (!detail) continue
    const question = recorded.questions[detail.question]
    if (question?.type === 'choice') details[operation] = { question: detail.question, options: Object.keys(question.criteria) }
  }
  // A recorded request carries no observation, so no elements an image would label: replays send none.
  return { state: recorded.state, elements: [], questions: recorded.questions, operations, heads, details }
}

/** What the live model chose, read the way the run read it; undefined when the run could not use it. */
export function referenceOf(recorded: RecordedRequest): ReferenceAnswer | undefined {
  try {
    const reply = { answers: recorded.answers, rounding: recorded.rounding, model: { provider: 'recording', modelId: recorded.model } }
    return answerOf(readDecision(requestOf(recorded), reply))
  } catch {
    return undefined
  }
}

/**
 * Asks one decider one recorded request, with the agent's own request code: the same timeout, retry
 * policy and answer checks as a live step. Never throws: a refusal or an unfit answer is `answered: false`.
 */
export async function replayOne(decider: Decider, recorded: RecordedRequest, settings: Settings): Promise<ReplayResult> {
  const request = requestOf(recorded)
  const ledger = createLedger()
  const started = performance.now()
  const base = { decider: decider.name, kind: decider.kind, request: recorded.request }
  try {
    const decision =
      decider.kind === 'language'
        ? await decideWithText(request, { ...settings, text: decider.model }, ledger)
        : await callDecisionModel({
            model: decider.model,
            settings,
            ledger,
            purpose: 'decision',
            state: request.state,
            questions: request.questions,
          }).then((reply) => readDecision(request, reply))
    const answer = answerOf(decision)
    return { ...base, ms: elapsed(started), answered: true, ...answer, ...agreement(answer, referenceOf(recorded)) }
  } catch (error) {
    return { ...base, ms: elapsed(started), answered: false, error: messageOf(error) }
  }
}

/** Operation and target as the agreement counts them: a SELECT target is `element:option`. */
function answerOf(decision: Pick<Decision, 'operation' | 'target' | 'option'>): ReferenceAnswer {
  if (decision.target === undefined) return { operation: decision.operation }
  return { operation: decision.operation, target: decision.option === undefined ? decision.target : `${decision.target}:${decision.option}` }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}
