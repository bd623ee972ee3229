import type { FailureTag, ReasoningLevel } from '../../types/index.d.ts'
import type { CompareRecord } from './record.ts'
import { lenientSum, median, mostCommon, p90, share, strictSum, tally } from '../common/stats.ts'

/** One setup's runs, summed up. Rates are shares of all runs; medians and p90 cover finished runs only. */
export interface SetupSummary {
  decisions: string
  text: string
  reasoning: ReasoningLevel
  runs: number
  /** Share of all runs the agent reported done: its own word. */
  doneRate: number
  /** Share of all runs the agent reported done and itself verified: its checklist proven on the page. */
  agentVerifiedRate: number
  /** Share of all runs whose final page passed every check; only with --verify-url / --verify-text. */
  verifiedRate?: number
  /** Runs reported done whose final page failed a check; only with --verify-url / --verify-text. */
  falseSuccesses?: number
  /** Runs that did not succeed, by failure tag, most frequent first; absent when none has a tag. */
  failures?: Partial<Record<FailureTag, number>>
  /** Share of all runs that finished and were judged met. */
  passRate: number
  /** Runs the evaluator judged at all. */
  judgedRuns: number
  /** Share of finished runs that took the most common path. */
  pathAgreement?: number
  commonPath?: string
  /** Share of extractions that returned the most common data. */
  dataAgreement?: number
  p90TotalMs?: number
  medianTotalMs?: number
  medianModelMs?: number
  medianDecisionRequests?: number
  medianUsd?: number
  /** What every run cost, failed ones included; absent when any run did not report its cost. */
  totalUsd?: number
  /** The sum of the costs that were reported. */
  reportedUsd: number
  runsWithoutCost: number
}

export interface Ranking {
  ranking: SetupSummary[]
  /** The cost of the whole comparison; absent when any run did not report its cost. */
  totalUsd?: number
  reportedUsd: number
  runsWithoutCost: number
}

export function setupKey(record: Pick<CompareRecord, 'decisions' | 'text' | 'reasoning'>): string {
  return JSON.stringify([record.decisions, record.text, record.reasoning])
}

export function summarizeSetup(records: readonly CompareRecord[], verifying: boolean): SetupSummary {
  const first = records[0]
  if (!first) throw new Error('summarizeSetup needs at least one record')
  const runs = records.length
  const finished = records.filter((record) => record.status === 'done')
  const paths = mostCommon(finished.map((record) => record.path))
  const extractions = records.filter((record) => record.extracted !== undefined)
  const data = mostCommon(extractions.flatMap((record) => (record.dataHash === undefined ? [] : [record.dataHash])))
  const summary: SetupSummary = {
    decisions: first.decisions,
    text: first.text,
    reasoning: first.reasoning,
    runs,
    doneRate: share(finished.length, runs)!,
    agentVerifiedRate: share(records.filter((record) => record.agentVerified === true).length, runs)!,
    ...(verifying
      ? {
          verifiedRate: share(records.filter((record) => record.verified === true).length, runs)!,
          falseSuccesses: finished.filter((record) => record.verified !== true).length,
        }
      : {}),
    failures: failureCounts(records),
    passRate: share(finished.filter((record) => record.passed === true).length, runs)!,
    judgedRuns: records.filter((record) => record.passed !== undefined).length,
    pathAgreement: paths && share(paths.count, finished.length),
    commonPath: paths?.value,
    dataAgreement: share(data?.count ?? 0, extractions.length),
    p90TotalMs: complete(finished, 'totalMs', p90),
    medianTotalMs: complete(finished, 'totalMs', median),
    medianModelMs: complete(finished, 'modelMs', median),
    medianDecisionRequests: complete(finished, 'decisionRequests', median),
    medianUsd: complete(finished, 'usd', median),
    totalUsd: strictSum(records.map((record) => record.usd)),
    reportedUsd: lenientSum(records.map((record) => record.usd)),
    runsWithoutCost: records.filter((record) => record.usd === undefined).length,
  }
  return withoutUndefined(summary)
}

/**
 * Best first: verified success when checks were given (the final page outranks the agent's own word),
 * then success the agent proved on the page, then doneRate, passRate, pathAgreement (higher is
 * better), then p90TotalMs and medianUsd (lower is better, and a missing figure ranks behind any figure).
 */
export function compareSummaries(a: SetupSummary, b: SetupSummary): number {
  return (
    higherFirst(a.verifiedRate, b.verifiedRate) ||
    higherFirst(a.agentVerifiedRate, b.agentVerifiedRate) ||
    higherFirst(a.doneRate, b.doneRate) ||
    higherFirst(a.passRate, b.passRate) ||
    higherFirst(a.pathAgreement, b.pathAgreement) ||
    lowerFirst(a.p90TotalMs, b.p90TotalMs) ||
    lowerFirst(a.medianUsd, b.medianUsd)
  )
}

/** Groups the records by setup (in order of first appearance) and ranks the setups. */
export function rank(records: readonly CompareRecord[], verifying: boolean): Ranking {
  const groups = new Map<string, CompareRecord[]>()
  for (const record of records) {
    const key = setupKey(record)
    groups.set(key, [...(groups.get(key) ?? []), record])
  }
  // Array.prototype.sort is stable, so setups that tie keep the order they were given in.
  const ranking = [...groups.values()].map((group) => summarizeSetup(group, verifying)).sort(compareSummaries)
  return withoutUndefined({
    ranking,
    totalUsd: strictSum(records.map((record) => record.usd)),
    reportedUsd: lenientSum(records.map((record) => record.usd)),
    runsWithoutCost: records.filter((record) => record.usd === undefined).length,
  })
}

/** Failed runs by tag; undefined when no run has a tag. */
function failureCounts(records: readonly CompareRecord[]): Partial<Record<FailureTag, number>> | undefined {
  const tags = records.flatMap((record) => (record.failure === undefined ? [] : [record.failure]))
  return tags.length === 0 ? undefined : tally(tags)
}

/** A statistic over the finished runs, absent when none finished or one of them lacks the number. */
function complete(
  finished: readonly CompareRecord[],
  field: 'totalMs' | 'modelMs' | 'decisionRequests' | 'usd',
  statistic: (values: number[]) => number | undefined,
): number | undefined {
  const values = finished.map((record) => record[field])
  if (values.length === 0 || values.some((value) => value === undefined)) return undefined
  return statistic(values as number[])
}

function higherFirst(a: number | undefined, b: number | undefined): number {
  return (b ?? -Infinity) - (a ?? -Infinity) || 0
}

function lowerFirst(a: number | undefined, b: number | undefined): number {
  return (a ?? Infinity) - (b ?? Infinity) || 0
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T
}
