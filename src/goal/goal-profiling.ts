import type { GoalProfiling, ProfilingCallOptions } from '../../types/index.d.ts'
import { summarizeCost, summarizeTiming, type Ledger } from '../profiling/ledger.ts'

/** `profiling()` of a goal: what its model calls cost and how long it took. */
export function goalProfiling(ledger: Ledger, totalMs: number): (options?: ProfilingCallOptions) => Promise<GoalProfiling> {
  const profiling: GoalProfiling = {
    accuracy: undefined,
    cost: summarizeCost(ledger.calls),
    timing: summarizeTiming(ledger.calls, totalMs, 0),
  }
  return async () => profiling
}
