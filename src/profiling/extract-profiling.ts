import type { ExtractProfiling, ProfilingCallOptions, Rules } from '../../types/index.d.ts'
import { summarizeCost, summarizeTiming, type Ledger } from './ledger.ts'

/**
 * `profiling()` for an extraction: the rules that ran and what the model calls cost. No extra
 * request is made, so every call returns the same object.
 */
export function createExtractProfiling(input: {
  ledger: Ledger
  rules: Rules | undefined
  totalMs: number
}): (options?: ProfilingCallOptions) => Promise<ExtractProfiling> {
  const profiling: ExtractProfiling = {
    rules: input.rules,
    cost: summarizeCost(input.ledger.calls),
    timing: summarizeTiming(input.ledger.calls, input.totalMs, 0),
  }
  return async () => profiling
}
