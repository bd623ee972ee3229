import type {
  Experimental_DecisionModelV4Result,
  LanguageModelV4GenerateResult,
  SharedV4ProviderMetadata,
} from '@ai-sdk/provider'
import type { ModelCallRecord } from '../base/ledger.ts'

// What one model attempt reported, read from the provider's raw result so that usage and cost are
// kept even when the SDK then rejects the answer.

export type CallReport = Omit<ModelCallRecord, 'purpose' | 'ms'>

export function reportDecision(result: Experimental_DecisionModelV4Result): CallReport {
  return {
    inputTokens: tokenCount(result.usage?.inputTokens),
    outputTokens: tokenCount(result.usage?.outputTokens),
    ...gatewayFigures(result.providerMetadata),
  }
}

export function reportGeneration(result: LanguageModelV4GenerateResult): CallReport {
  const usage = result.usage
  return {
    inputTokens: tokenCount(usage?.inputTokens?.total),
    outputTokens: tokenCount(usage?.outputTokens?.total),
    cacheReadTokens: tokenCount(usage?.inputTokens?.cacheRead),
    cacheWriteTokens: tokenCount(usage?.inputTokens?.cacheWrite),
    reasoningTokens: tokenCount(usage?.outputTokens?.reasoning),
    ...gatewayFigures(result.providerMetadata),
  }
}

/** A failed attempt reports no usage, but a gateway error still names its generation. */
export function reportFailure(error: unknown): CallReport {
  const id = typeof error === 'object' && error !== null ? (error as { generationId?: unknown }).generationId : undefined
  return { generationIds: typeof id === 'string' && id !== '' ? [id] : [] }
}

/** `providerMetadata.gateway`: `cost` is a decimal string in USD, `generationId` a `gen_…` id. Both optional. */
function gatewayFigures(metadata: SharedV4ProviderMetadata | undefined): Pick<CallReport, 'usd' | 'generationIds'> {
  const gateway = metadata?.gateway
  const id = gateway?.generationId
  return { usd: parseUsd(gateway?.cost), generationIds: typeof id === 'string' && id !== '' ? [id] : [] }
}

export function parseUsd(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string' || !/^\d+(\.\d+)?([eE][-+]?\d+)?$/.test(value.trim())) return undefined
  return Number(value.trim())
}

function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined
}
