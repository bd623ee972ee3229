// A job's result goes through Redis as JSON, where an Error would arrive as `{}` and a function not at
// all: goal and extraction results are turned into the JSON a script's result prints as.
import type { ExtractResult, GoalResult } from '../../types/index.d.ts'
import type { JobExtractResult, JobGoalResult, PlainError } from '../../types/queue.d.ts'

export function plainError(error: Error): PlainError {
  const { code, reason } = error as Error & { code?: unknown; reason?: unknown }
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' && { code }),
    ...(typeof reason === 'string' && { reason }),
  }
}

export function plainGoal(goal: string, result: GoalResult): JobGoalResult {
  const { profiling: _profiling, error, ...rest } = result
  return withoutErrors({ goal, ...rest, ...(error && { error: plainError(error) }) }) as JobGoalResult
}

export function plainExtract(result: ExtractResult): JobExtractResult {
  const { profiling: _profiling, error, ...rest } = result
  return withoutErrors({ ...rest, ...(error && { error: plainError(error) }) }) as JobExtractResult
}

/** Deep copy as JSON has it, with any Error inside (a trace's) made plain too. */
function withoutErrors(value: object): object {
  return JSON.parse(JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Error ? plainError(inner) : inner)))
}
