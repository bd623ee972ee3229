import { median, p90 } from '../common/stats.ts'
import type { LiveOutcome, RecordedRequest } from './recording.ts'

/**
 * One decider's answer to one recorded request: one JSON line of the benchmark's results. A replay
 * sends the recorded request to the model and drives no page, so it has no run report of its own; the
 * report of the live run the request came from is in the recording (`outcome.report`, with --record).
 */
export interface ReplayResult {
  /** The decider as given on the command line, e.g. `local` or `amazon/nova-micro`. */
  decider: string
  /** `decision`: a decision model through experimental_decide; `language`: the decisions:false path. */
  kind: 'decision' | 'language'
  /** 1-based number of the recorded request. */
  request: number
  ms: number
  answered: boolean
  operation?: string
  target?: string
  error?: string
  /** Against the recorded live answer; absent when that request has no live answer. */
  sameOperation?: boolean
  sameOperationAndTarget?: boolean
}

export interface DeciderSummary {
  decider: string
  kind: 'decision' | 'language'
  requests: number
  answered: number
  /** Over answered requests only: a refused or failed request has no latency worth comparing. */
  medianMs?: number
  p90Ms?: number
  sameOperation: number
  sameOperationAndTarget: number
}

/** What the live run chose for a request. */
export interface ReferenceAnswer {
  operation: string
  target?: string
}

export function agreement(answer: ReferenceAnswer, reference: ReferenceAnswer | undefined): Pick<ReplayResult, 'sameOperation' | 'sameOperationAndTarget'> {
  if (!reference) return {}
  const sameOperation = answer.operation === reference.operation
  return { sameOperation, sameOperationAndTarget: sameOperation && answer.target === reference.target }
}

/** One summary per decider, in the order the deciders first appear. */
export function summarizeReplay(results: readonly ReplayResult[]): DeciderSummary[] {
  const groups = new Map<string, ReplayResult[]>()
  for (const result of results) {
    const key = `${result.kind}:${result.decider}`
    groups.set(key, [...(groups.get(key) ?? []), result])
  }
  return [...groups.values()].map((group) => {
    const answered = group.filter((result) => result.answered)
    const times = answered.map((result) => result.ms)
    const summary: DeciderSummary = {
      decider: group[0]!.decider,
      kind: group[0]!.kind,
      requests: group.length,
      answered: answered.length,
      sameOperation: group.filter((result) => result.sameOperation === true).length,
      sameOperationAndTarget: group.filter((result) => result.sameOperationAndTarget === true).length,
    }
    const medianMs = median(times)
    const p90Ms = p90(times)
    if (medianMs !== undefined) summary.medianMs = Math.round(medianMs)
    if (p90Ms !== undefined) summary.p90Ms = Math.round(p90Ms)
    return summary
  })
}

/** A Markdown table, ready for scripts/README.md. */
export function renderTable(summaries: readonly DeciderSummary[], referenceLabel: string): string {
  const rows = summaries.map((summary) =>
    [
      `\`${summary.decider}\`${summary.kind === 'language' ? ' (text model)' : ''}`,
      `${summary.answered}/${summary.requests}`,
      summary.medianMs === undefined ? 'n/a' : `${summary.medianMs} ms`,
      summary.p90Ms === undefined ? 'n/a' : `${summary.p90Ms} ms`,
      String(summary.sameOperation),
      String(summary.sameOperationAndTarget),
    ],
  )
  const header = ['Decider', 'Answered', 'Median', 'p90', `Same operation as live \`${referenceLabel}\``, 'Same operation and target']
  return [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n')
}

/**
 * The live runs behind a recording, e.g. `2 live runs of local: 2 successes, 1 verified`: the agent's
 * own word beside what its checklist proved. Older recordings carry no outcome, and then none is told.
 */
export function describeLiveRuns(recording: readonly Pick<RecordedRequest, 'run' | 'model' | 'outcome'>[]): string {
  const outcomes = new Map<number, LiveOutcome | undefined>()
  for (const item of recording) if (!outcomes.has(item.run)) outcomes.set(item.run, item.outcome)
  const runs = `${outcomes.size} live run${outcomes.size === 1 ? '' : 's'} of ${recording[0]?.model ?? 'no model'}`
  const known = [...outcomes.values()]
  if (known.some((outcome) => outcome === undefined)) return runs
  const successes = known.filter((outcome) => outcome!.status === 'success').length
  const verified = known.filter((outcome) => outcome!.verified).length
  return `${runs}: ${successes} success${successes === 1 ? '' : 'es'}, ${verified} verified`
}

/** The report of each live run behind a recording, in run order; runs recorded without --record have none. */
export function liveReports(recording: readonly Pick<RecordedRequest, 'run' | 'outcome'>[]): { run: number; report: string }[] {
  const reports = new Map<number, string>()
  for (const item of recording) if (item.outcome?.report && !reports.has(item.run)) reports.set(item.run, item.outcome.report)
  return [...reports].sort(([a], [b]) => a - b).map(([run, report]) => ({ run, report }))
}
