import createDebug from 'debug'
import type { Accuracy, CacheStatus, Cost, Timing, TraceEntry } from '../../types/index.d.ts'

// Debug lines under the `puppeteer-agent` namespace (DEBUG=puppeteer-agent), one per step and one per
// finished goal or extraction, as logfmt `key=value` pairs. Typed values are never logged.

export const log = createDebug('puppeteer-agent')

export type LogValue = string | number | boolean | string[] | undefined

/** `key=value` pairs; values with spaces, quotes or `=` are quoted; undefined values are left out. */
export function logfmt(fields: Record<string, LogValue>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, Exclude<LogValue, undefined>] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`)
    .join(' ')
}

function formatValue(value: Exclude<LogValue, undefined>): string {
  const text = Array.isArray(value) ? value.join(',') : typeof value === 'number' ? formatNumber(value) : String(value)
  return text === '' || /[\s"=\\]/.test(text) ? JSON.stringify(text) : text
}

// Probabilities are read to four places; whole milliseconds and dollar amounts stay as they are.
function formatNumber(value: number): string {
  return Number.isInteger(value) || Math.abs(value) < 0.001 ? String(value) : String(Number(value.toFixed(4)))
}

/** One line per decision request of a goal. `stepMs` is the whole step: observe, decide, write, act. */
export function logStep(entry: TraceEntry, stepMs: number): void {
  if (!log.enabled) return
  log(
    '%s',
    `step ${logfmt({
      request: entry.request,
      step: entry.step,
      operation: entry.operation,
      target: entry.target,
      option: entry.option,
      cached: entry.cached,
      match: entry.match,
      confidence: entry.confidence,
      targetConfidence: entry.targetConfidence,
      risk: entry.risk,
      approved: entry.approved,
      stale: entry.stale,
      pageChanged: entry.pageChanged,
      ms: Math.round(stepMs),
      decisionMs: entry.decisionMs,
      textMs: entry.textMs,
    })}`,
  )
}

export interface FinishedFields {
  status?: 'success' | 'error'
  cost: Cost
  timing: Timing
  accuracy?: Accuracy
  cache?: CacheStatus
}

/** One line when a goal or extraction finishes, and one more for a goal once its accuracy is known. */
export function logFinished(kind: 'goal' | 'extract', fields: FinishedFields): void {
  if (!log.enabled) return
  log('%s', `${kind} ${logfmt(flatten(fields))}`)
}

export function flatten({ status, cost, timing, accuracy, cache }: FinishedFields): Record<string, LogValue> {
  return {
    status,
    cache,
    ...(accuracy ? { passed: accuracy.passed, probability: accuracy.probability } : {}),
    ...cost,
    ...timing,
  }
}
