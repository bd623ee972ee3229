import { createHash } from 'node:crypto'
import type { BlockedReason, FailureTag, ReasoningLevel, TraceEntry } from '../../types/index.d.ts'

/** One run of one setup: one JSON line of `npm run compare`. Optional fields are absent when not known. */
export interface CompareRecord {
  /** Decision model id, or `none` when the text model decides. */
  decisions: string
  text: string
  reasoning: ReasoningLevel
  /** 1-based run number within the setup. */
  run: number
  status: 'done' | BlockedReason | 'error'
  /** The failure tag of the goal that did not succeed; absent when every goal succeeded, or none ran. */
  failure?: FailureTag
  /**
   * The agent's own `verified`: every goal succeeded with its checklist proven on the page. Absent when
   * no goal ran; older records, from before the checklist, do not have it.
   */
  agentVerified?: boolean
  error?: string
  goalsDone: number
  navigationError?: string
  path: string
  decisionRequests: number
  staleDecisions: number
  actionsWithoutPageChange: number
  minConfidence?: number
  passed?: boolean
  probability?: number
  calls?: number
  inputTokens?: number
  outputTokens?: number
  usd?: number
  totalMs?: number
  modelMs?: number
  finalUrl?: string
  /** With --verify-url / --verify-text: whether every check held on the final page (the harness's verdict, not the agent's). */
  verified?: boolean
  /** The checks that did not hold, when `verified` is false. */
  verifyFailed?: string[]
  extracted?: boolean
  extractError?: string
  extractMs?: number
  extractUsd?: number
  dataValues?: number
  dataHash?: string
  /**
   * With --record: the report.html of each goal that ran, then of the extraction, in that order
   * (absolute paths; run.jsonl and the screenshots are beside each). Absent without --record.
   */
  reports?: string[]
}

/** Every field of a record, in the order a reader wants them (the README's table). */
export const RECORD_FIELDS = [
  'decisions', 'text', 'reasoning', 'run',
  'status', 'failure', 'agentVerified', 'error', 'goalsDone', 'navigationError', 'path',
  'decisionRequests', 'staleDecisions', 'actionsWithoutPageChange', 'minConfidence',
  'passed', 'probability', 'calls', 'inputTokens', 'outputTokens', 'usd', 'totalMs', 'modelMs',
  'finalUrl', 'verified', 'verifyFailed',
  'extracted', 'extractError', 'extractMs', 'extractUsd', 'dataValues', 'dataHash',
  'reports',
] as const satisfies readonly (keyof CompareRecord)[]

// Operations that are not page input: a DONE or BLOCKED that leaves the page alone is not wasted work.
const NOT_INPUT = new Set(['DONE', 'BLOCKED'])

/** `CLICK e17 > DONE`, one trace per goal, goals joined by ` | `. Discarded stale decisions did not run. */
export function pathOf(traces: readonly (readonly TraceEntry[])[]): string {
  return traces
    .map((trace) =>
      trace
        .filter((entry) => !entry.stale)
        .map((entry) => (entry.target ? `${entry.operation} ${entry.target}` : entry.operation))
        .join(' > '),
    )
    .join(' | ')
}

export function staleDecisions(traces: readonly (readonly TraceEntry[])[]): number {
  return traces.flat().filter((entry) => entry.stale).length
}

export function actionsWithoutPageChange(traces: readonly (readonly TraceEntry[])[]): number {
  return traces.flat().filter((entry) => !entry.stale && !entry.pageChanged && !NOT_INPUT.has(entry.operation)).length
}

/** The lowest probability of any chosen operation or target; undefined when no decision had one (text model). */
export function minConfidence(traces: readonly (readonly TraceEntry[])[]): number | undefined {
  const values = traces.flat().flatMap((entry) => [entry.confidence, entry.targetConfidence]).filter((value) => value !== undefined)
  return values.length > 0 ? Math.min(...values) : undefined
}

/** Leaves that hold something: not null, undefined, a blank string or an empty list. */
export function countValues(data: unknown): number {
  if (data === null || data === undefined) return 0
  if (typeof data === 'string') return data.trim() === '' ? 0 : 1
  if (Array.isArray(data)) return data.reduce<number>((sum, item) => sum + countValues(item), 0)
  if (typeof data === 'object') return Object.values(data).reduce<number>((sum, item) => sum + countValues(item), 0)
  return 1
}

/** A short hash of the data that is the same whatever the order of the keys (list order still counts). */
export function dataHash(data: unknown): string {
  return createHash('sha256').update(stableJson(data)).digest('hex').slice(0, 16)
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => stableJson(item)).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
