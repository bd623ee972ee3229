import type { CacheStatus, ExtractProfiling, ProfilingCallOptions, Rules } from '../../types/index.d.ts'
import { summarizeCost, summarizeTiming, type Ledger } from '../base/ledger.ts'
import { logFinished } from '../base/log.ts'

/**
 * `profiling()` for an extraction: the rules that ran, what the model calls cost and what the replay
 * cache did. No extra request is made, so every call returns the same object. Creating it writes the
 * extraction's finish line to the debug log.
 */
export function createExtractProfiling(input: {
  ledger: Ledger
  rules: Rules | undefined
  /** Absent when the cache is off or the extraction needed no model. */
  cache?: CacheStatus
  totalMs: number
  /** For the debug line. */
  status: 'success' | 'error'
}): (options?: ProfilingCallOptions) => Promise<ExtractProfiling> {
  const profiling: ExtractProfiling = {
    rules: input.rules,
    cost: summarizeCost(input.ledger.calls),
    timing: summarizeTiming(input.ledger.calls, input.totalMs, 0),
    ...(input.cache ? { cache: input.cache } : {}),
  }
  logFinished('extract', { status: input.status, cost: profiling.cost, timing: profiling.timing })
  return async () => profiling
}
