import { experimental_decide, Experimental_DecisionRefusalError, InvalidResponseDataError, type Experimental_DecisionState } from 'ai'
import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4Question,
  Experimental_DecisionModelV4Result,
  JSONObject,
} from '@ai-sdk/provider'
import type { Ledger, ModelCallRecord } from '../base/ledger.ts'
import { reportDecision } from './call-report.ts'
import { runModelRequest, type RequestSettings } from './model-request.ts'
import { modelLabel, resolveDecisionModel } from './resolve-model.ts'

export type DecisionAnswers = Record<string, Experimental_DecisionModelV4Answer>
export type Rounding = Experimental_DecisionModelV4Result['rounding']

export interface DecisionModelRequest {
  /** A decision model setting: a gateway id or a model instance. */
  model: string | object
  settings: RequestSettings
  ledger: Ledger
  purpose: Extract<ModelCallRecord['purpose'], 'decision' | 'evaluation'>
  /** JSON, or parts: the JSON and a badged screenshot (vision). */
  state: JSONObject | Experimental_DecisionState
  questions: Record<string, Experimental_DecisionModelV4Question>
}

/**
 * What the model answered. The caller checks the answers it uses (src/decision/check-answers.ts):
 * when the SDK rejected the reply, `answers` is the raw reply and `rejection` the SDK's objection,
 * which may concern a head nobody reads.
 */
export interface DecisionReply {
  answers: DecisionAnswers
  rounding: Rounding
  /** Which model answered, for errors that name it. */
  model: { provider: string; modelId: string }
  rejection?: unknown
}

/**
 * One `experimental_decide` request under the agent's timeout, retry and accounting rules. It only
 * carries the request: the answers are checked by whoever reads them.
 */
export async function callDecisionModel(request: DecisionModelRequest): Promise<DecisionReply> {
  const model = resolveDecisionModel(request.model)
  const identity = { provider: model.provider, modelId: model.modelId }
  return runModelRequest({
    settings: request.settings,
    ledger: request.ledger,
    purpose: request.purpose,
    description: `${request.purpose === 'evaluation' ? 'evaluator' : 'decision model'} "${modelLabel(model)}"`,
    attempt: async (signal, report) => {
      let raw: Experimental_DecisionModelV4Result | undefined
      const reporting = reportingModel(model, (result) => {
        raw = result
        report(reportDecision(result))
      })
      let result: Awaited<ReturnType<typeof experimental_decide>>
      try {
        result = await experimental_decide({
          model: reporting,
          state: request.state,
          questions: request.questions,
          // Retries are ours: every attempt is counted and Retry-After is capped.
          maxRetries: 0,
          abortSignal: signal,
        })
      } catch (error) {
        // The SDK validates every answer, including speculative heads the caller will not use.
        // When it rejected the reply, the caller decides on the heads that matter with its own checks.
        if (!raw || signal.aborted || !isAnswerRejection(error)) throw error
        return { answers: raw.answers, rounding: raw.rounding, model: identity, rejection: error }
      }
      return { answers: result.answers as DecisionAnswers, rounding: result.rounding, model: identity }
    },
  })
}

function isAnswerRejection(error: unknown): boolean {
  return InvalidResponseDataError.isInstance(error) || Experimental_DecisionRefusalError.isInstance(error)
}

function reportingModel(
  model: Experimental_DecisionModelV4,
  onResult: (result: Experimental_DecisionModelV4Result) => void,
): Experimental_DecisionModelV4 {
  return {
    specificationVersion: 'v4',
    // Copied explicitly: on provider classes these are getters or prototype methods.
    provider: model.provider,
    modelId: model.modelId,
    supportedQuestionTypes: model.supportedQuestionTypes,
    doDecide: async (options) => {
      const result = await model.doDecide(options)
      onResult(result)
      return result
    },
  }
}
