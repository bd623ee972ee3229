import type { Accuracy, CacheStatus, GoalProfiling, GoalResult, ProfilingCallOptions, TraceEntry } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import { toError } from '../errors.ts'
import type { Settings } from '../options.ts'
import { evaluateGoal } from './evaluate-goal.ts'
import { summarizeCost, summarizeTiming, type Ledger } from '../base/ledger.ts'
import { logFinished } from '../base/log.ts'

export interface GoalProfilingInput {
  goal: string
  status: GoalResult['status']
  /** Every model call of the run; the evaluator's calls are added to it. */
  ledger: Ledger
  /** The last observation of the run; undefined when no page was observed (then no accuracy). */
  observation: Observation | undefined
  trace: readonly TraceEntry[]
  /** `evaluator`, `timeout` and the retry settings apply to the evaluation; the run's `signal` does not. */
  settings: Settings
  /** Wall time of the run, without any evaluation. */
  totalMs: number
  /** What the replay cache did; undefined when it is off. */
  cache?: CacheStatus | undefined
  /** Told the evaluator's verdict once it is known (the recording writes it); awaited, never thrown. */
  onEvaluated?: (accuracy: Accuracy) => Promise<void>
}

/**
 * `profiling()` of a finished goal, and the goal's finish line in the debug log. The first call asks
 * the evaluator whether the goal is met; once that succeeds every call returns the same object. A
 * failed or cancelled evaluation resolves with `accuracy: undefined` and `error`, and the next call
 * tries again. Calls made while an evaluation is running share it.
 */
export function createGoalProfiling(input: GoalProfilingInput): (options?: ProfilingCallOptions) => Promise<GoalProfiling> {
  const { ledger, totalMs, status } = input
  let evaluationMs = 0
  let settled: GoalProfiling | undefined
  let running: Promise<GoalProfiling> | undefined

  const summary = (accuracy: GoalProfiling['accuracy']): GoalProfiling => {
    const profiling: GoalProfiling = { accuracy, cost: summarizeCost(ledger.calls), timing: summarizeTiming(ledger.calls, totalMs, evaluationMs) }
    if (input.cache) profiling.cache = input.cache
    return profiling
  }
  logFinished('goal', { status, ...summary(undefined) })

  async function evaluate(signal: AbortSignal | undefined): Promise<GoalProfiling> {
    const observation = input.observation
    if (!observation) return (settled = summary(undefined))
    const started = performance.now()
    try {
      const accuracy = await evaluateGoal({
        goal: input.goal,
        observation,
        trace: input.trace,
        settings: { ...input.settings, signal },
        ledger,
      })
      evaluationMs += performance.now() - started
      settled = summary(accuracy)
      logFinished('goal', { status, ...settled })
      if (accuracy) await input.onEvaluated?.(accuracy).catch(() => {})
      return settled
    } catch (error) {
      evaluationMs += performance.now() - started
      return { ...summary(undefined), error: toError(error) }
    }
  }

  return (options?: ProfilingCallOptions) => {
    if (settled) return Promise.resolve(settled)
    running ??= evaluate(options?.signal).finally(() => {
      running = undefined
    })
    return running
  }
}
