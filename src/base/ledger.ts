import type { Cost, Timing } from '../../types/index.d.ts'

// The ledger is where every model call is counted. It imports only the public types, so every folder
// that calls a model (or reports what the calls cost) may import it.

/** What one model call (one attempt) reported. Missing numbers stay undefined: never guessed. */
export interface ModelCallRecord {
  /** Which part made the call; `checklist` is the one request that writes a goal's checklist. */
  purpose: 'decision' | 'text' | 'checklist' | 'rules' | 'evaluation'
  /** How long the run waited on this attempt: the request, and the retry pause after it when it failed. */
  ms: number
  inputTokens?: number
  outputTokens?: number
  cacheReadTokens?: number
  cacheWriteTokens?: number
  reasoningTokens?: number
  usd?: number
  generationIds: string[]
}

/** Every model call of one goal or extraction, in order. */
export interface Ledger {
  calls: ModelCallRecord[]
}

export function createLedger(): Ledger {
  return { calls: [] }
}

export function recordCall(ledger: Ledger, call: ModelCallRecord): void {
  ledger.calls.push(call)
}

/**
 * Sums the calls. `usd`, `inputTokens` and `outputTokens` are undefined as soon as one call did not
 * report them, so a total is never understated; cache and reasoning figures add what was reported.
 */
export function summarizeCost(calls: readonly ModelCallRecord[]): Cost {
  return {
    calls: calls.length,
    inputTokens: strictSum(calls.map((call) => call.inputTokens)),
    outputTokens: strictSum(calls.map((call) => call.outputTokens)),
    cachedInputTokens: lenientSum(calls.map((call) => call.cacheReadTokens)),
    cacheWriteTokens: lenientSum(calls.map((call) => call.cacheWriteTokens)),
    reasoningTokens: lenientSum(calls.map((call) => call.reasoningTokens)),
    usd: roundUsd(strictSum(calls.map((call) => call.usd))),
    generationIds: calls.flatMap((call) => call.generationIds),
  }
}

/** Wall time of the run split into time waiting on models and everything else. */
export function summarizeTiming(calls: readonly ModelCallRecord[], totalMs: number, evaluationMs: number): Timing {
  const modelMs = Math.round(calls.filter((call) => call.purpose !== 'evaluation').reduce((sum, call) => sum + call.ms, 0))
  const total = Math.round(totalMs)
  return { totalMs: total, modelMs, otherMs: Math.max(0, total - modelMs), evaluationMs: Math.round(evaluationMs) }
}

function strictSum(values: (number | undefined)[]): number | undefined {
  let sum = 0
  for (const value of values) {
    if (value === undefined || !Number.isFinite(value)) return undefined
    sum += value
  }
  return sum
}

function lenientSum(values: (number | undefined)[]): number {
  return values.reduce<number>((sum, value) => (value !== undefined && Number.isFinite(value) ? sum + value : sum), 0)
}

// Floating-point sums of decimal strings drift (0.1 + 0.2); twelve places is below any price the gateway reports.
function roundUsd(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Number(value.toFixed(12))
}
