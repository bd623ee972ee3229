import type {
  Experimental_DecisionModelV4,
  Experimental_DecisionModelV4Answer,
  Experimental_DecisionModelV4CallOptions,
  Experimental_DecisionModelV4Result,
} from '@ai-sdk/provider'

// Hand-written decision models for tests: no network, every request kept for the test to read.

/** What the model does with one request: answer with a result, throw an error, or run a function of the request. */
export type DecisionReply =
  | Experimental_DecisionModelV4Result
  | Error
  | ((options: Experimental_DecisionModelV4CallOptions) => Experimental_DecisionModelV4Result | Promise<Experimental_DecisionModelV4Result>)

export interface RecordingDecisionModel {
  model: Experimental_DecisionModelV4
  /** Every request the model received, in order, including those it failed. */
  calls: Experimental_DecisionModelV4CallOptions[]
}

/**
 * A decision model (`mockprov:mock-1` unless `identity` names another) that answers its nth request
 * with the nth reply; the last reply repeats.
 */
export function decisionModel(
  replies: DecisionReply | readonly DecisionReply[],
  identity: { provider?: string; modelId?: string } = {},
): RecordingDecisionModel {
  const list = Array.isArray(replies) ? replies : [replies as DecisionReply]
  if (list.length === 0) throw new Error('decisionModel needs at least one reply')
  const calls: Experimental_DecisionModelV4CallOptions[] = []
  const model: Experimental_DecisionModelV4 = {
    specificationVersion: 'v4',
    provider: identity.provider ?? 'mockprov',
    modelId: identity.modelId ?? 'mock-1',
    supportedQuestionTypes: ['choice', 'score', 'boolean'],
    doDecide: async (options) => {
      calls.push(options)
      const reply = list[Math.min(calls.length - 1, list.length - 1)]!
      if (reply instanceof Error) throw reply
      return typeof reply === 'function' ? reply(options) : reply
    },
  }
  return { model, calls }
}

/** Probabilities over `ids` where `chosen` gets `p` and the others share the rest evenly; a single option gets 1. */
export function distribution(ids: readonly string[], chosen: string, p: number): Record<string, number> {
  if (ids.length === 1) return { [chosen]: 1 }
  const rest = (1 - p) / (ids.length - 1)
  return Object.fromEntries(ids.map((id) => [id, id === chosen ? p : rest]))
}

/** A choice answer for `chosen` carrying `distribution(ids, chosen, p)`. */
export function choiceAnswer(ids: readonly string[], chosen: string, p: number): Experimental_DecisionModelV4Answer {
  return { type: 'choice', choice: chosen, probabilities: distribution(ids, chosen, p) }
}
