import type { ExtractProfiling, ProfilingCallOptions, Rules } from '../../types/index.d.ts'
import { summarizeCost, summarizeTiming, type Ledger } from './ledger.ts'
import { logFinished } from './log.ts'

/**
 * `profiling()` for an extraction: the rules that ran and what the model calls cost. No extra
 * request is made, so every call returns the same object. Creating it writes the extraction's
 * finish line to the debug log.
 */
export function createExtractProfiling(input: {
  ledger: Ledger
  rules: Rules | undefined
  totalMs: number
  /** For the debug line. */
  status: 'success' | 'error'
}): (options?: ProfilingCallOptions) => Promise<ExtractProfiling> {
  const profiling: ExtractProfiling = {
    rules: input.rules,
    cost: summarizeCost(input.ledger.calls),
    timing: summarizeTiming(input.ledger.calls, input.totalMs, 0),
  }
  logFinished('extract', { status: input.status, cost: profiling.cost, timing: profiling.timing })
  return async () => profiling
}
