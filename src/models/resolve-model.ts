import { gateway } from 'ai'
import type { Experimental_DecisionModelV4, LanguageModelV4 } from '@ai-sdk/provider'

// A model setting is an AI Gateway model id or an AI SDK model instance used as it is (`'local'`, the
// offline baseline, is made an instance where options are resolved). The default `gateway` reads
// AI_GATEWAY_API_KEY on every request, so nothing is read here.

/** An older decision model that only implements the deprecated `doEvaluate`. */
type LegacyDecisionModel = Omit<Experimental_DecisionModelV4, 'doDecide'> & {
  doEvaluate: Experimental_DecisionModelV4['doDecide']
}

export function resolveDecisionModel(setting: string | object): Experimental_DecisionModelV4 {
  if (typeof setting === 'string') return gateway.decisionModel(setting)
  if ('doDecide' in setting) return setting as Experimental_DecisionModelV4
  const legacy = setting as LegacyDecisionModel
  return {
    specificationVersion: 'v4',
    provider: legacy.provider,
    modelId: legacy.modelId,
    supportedQuestionTypes: legacy.supportedQuestionTypes,
    doDecide: (options) => legacy.doEvaluate(options),
  }
}

export function resolveLanguageModel(setting: string | object): LanguageModelV4 {
  if (typeof setting === 'string') return gateway(setting)
  return setting as LanguageModelV4
}

/** How errors and logs name a model: `provider/modelId`, or just the id when it already says the provider. */
export function modelLabel(model: { provider: string; modelId: string }): string {
  return model.provider === 'gateway' ? model.modelId : `${model.provider}:${model.modelId}`
}
