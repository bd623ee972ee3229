import type { CacheStatus } from '../../types/index.d.ts'
import { median } from '../common/stats.ts'
import type { PageRecord, StepTime } from './run-page.ts'

// The figures of bench:cache, per pass and for steps, and the tables and target lines it prints.

/** Share of pages per cache outcome; `off` when profiling() reported none (the cache did not run). */
export type CacheRates = Record<CacheStatus | 'off', number>

export interface PassSummary {
  pass: number
  label: string
  pages: number
  failed: number
  decisionRequestsPerPage: number
  goalTextRequestsPerPage: number
  extractRequestsPerPage: number
  medianPageMs: number | undefined
  medianGoalMs: number | undefined
  medianExtractMs: number | undefined
  goalCache: CacheRates
  extractCache: CacheRates
  /** Steps that acted, and how many of them the cache supplied. */
  steps: number
  cachedSteps: number
  cachedStepShare: number | undefined
  scoredMatches: number
}

export interface StepSummary {
  steps: number
  medianNonModelMs: number | undefined
  medianObserveMs: number | undefined
  medianDecisionMs: number | undefined
  medianActMs: number | undefined
  byOperation: Record<string, { steps: number; medianNonModelMs: number | undefined }>
}

export const TARGETS = { extractRequestsPerPage: 0.05, cachedStepShare: 0.95, replayOverhead: 0.1 } as const

const round = (value: number | undefined, places = 3) => (value === undefined ? undefined : Number(value.toFixed(places)))

function rates(values: (CacheStatus | undefined)[]): CacheRates {
  const out: CacheRates = { hit: 0, healed: 0, miss: 0, off: 0 }
  for (const value of values) out[value ?? 'off'] += 1
  for (const key of Object.keys(out) as (keyof CacheRates)[]) out[key] = values.length === 0 ? 0 : round(out[key] / values.length, 4)!
  return out
}

export function summarizePass(pass: number, label: string, records: readonly PageRecord[]): PassSummary {
  const per = (pick: (record: PageRecord) => number) => round(records.reduce((sum, record) => sum + pick(record), 0) / Math.max(1, records.length))!
  const steps = records.flatMap((record) => record.steps)
  const cached = steps.filter((step) => step.cached)
  return {
    pass,
    label,
    pages: records.length,
    failed: records.filter((record) => !record.ok).length,
    decisionRequestsPerPage: per((record) => record.decisions),
    goalTextRequestsPerPage: per((record) => record.goalTextRequests),
    extractRequestsPerPage: per((record) => record.extractRequests),
    medianPageMs: round(median(records.map((record) => record.goalMs + record.extractMs)), 1),
    medianGoalMs: round(median(records.map((record) => record.goalMs)), 1),
    medianExtractMs: round(median(records.map((record) => record.extractMs)), 1),
    goalCache: rates(records.map((record) => record.goalCache)),
    extractCache: rates(records.map((record) => record.extractCache)),
    steps: steps.length,
    cachedSteps: cached.length,
    cachedStepShare: steps.length === 0 ? undefined : round(cached.length / steps.length, 4),
    // A scored match is acted on only once the model chose it: it is a step of the model's, not a cached one.
    scoredMatches: steps.filter((step) => step.match === 'scored').length,
  }
}

export function summarizeSteps(steps: readonly StepTime[]): StepSummary {
  const operations = [...new Set(steps.map((step) => step.operation))].sort()
  return {
    steps: steps.length,
    medianNonModelMs: round(median(steps.map((step) => step.nonModelMs)), 1),
    medianObserveMs: round(median(steps.map((step) => step.observeMs)), 1),
    medianDecisionMs: round(median(steps.map((step) => step.decisionMs)), 1),
    medianActMs: round(median(steps.map((step) => step.actMs)), 1),
    byOperation: Object.fromEntries(
      operations.map((operation) => {
        const mine = steps.filter((step) => step.operation === operation)
        return [operation, { steps: mine.length, medianNonModelMs: round(median(mine.map((step) => step.nonModelMs)), 1) }]
      }),
    ),
  }
}

const percent = (value: number | undefined) => (value === undefined ? '–' : `${(value * 100).toFixed(1)}%`)
const ms = (value: number | undefined) => (value === undefined ? '–' : `${value} ms`)
const cacheCell = (rates: CacheRates) => `${percent(rates.hit)} / ${percent(rates.healed)} / ${percent(rates.miss)}${rates.off > 0 ? ` (off ${percent(rates.off)})` : ''}`

export function renderPasses(passes: readonly PassSummary[]): string {
  const rows = passes.map(
    (pass) =>
      `| ${pass.label} | ${pass.pages} | ${pass.failed} | ${pass.decisionRequestsPerPage.toFixed(3)} | ${pass.goalTextRequestsPerPage.toFixed(3)} | ${pass.extractRequestsPerPage.toFixed(3)} | ${ms(pass.medianPageMs)} | ${cacheCell(pass.goalCache)} | ${cacheCell(pass.extractCache)} | ${pass.cachedSteps} of ${pass.steps} (${percent(pass.cachedStepShare)}) |`,
  )
  return [
    '| Pass | Pages | Failed | Decision requests / page | Goal text requests / page | Extraction requests / page | Median time / page | Goal cache hit / healed / miss | Extraction cache hit / healed / miss | Goal steps from the cache |',
    '|---|---:|---:|---:|---:|---:|---:|---|---|---|',
    ...rows,
  ].join('\n')
}

export function renderSteps(model: StepSummary, replayed: StepSummary): string {
  const row = (label: string, summary: StepSummary) =>
    `| ${label} | ${summary.steps} | ${ms(summary.medianNonModelMs)} | ${ms(summary.medianObserveMs)} | ${ms(summary.medianDecisionMs)} | ${ms(summary.medianActMs)} | ${
      Object.entries(summary.byOperation)
        .map(([operation, figures]) => `${operation} ${ms(figures.medianNonModelMs)} (${figures.steps})`)
        .join(', ') || '–'
    } |`
  return [
    '| Step | Steps | Median non-model time | Observe | Decide | Act | By operation (steps) |',
    '|---|---:|---:|---:|---:|---:|---|',
    row('model', model),
    row('replayed', replayed),
  ].join('\n')
}

export interface TargetCheck {
  name: string
  value: string
  target: string
  met: boolean | undefined
}

/** The issue's targets, judged on the second pass and on the step times. */
export function checkTargets(second: PassSummary, model: StepSummary, replayed: StepSummary): TargetCheck[] {
  const overhead =
    model.medianNonModelMs && replayed.medianNonModelMs !== undefined ? replayed.medianNonModelMs / model.medianNonModelMs - 1 : undefined
  return [
    {
      name: 'Extraction requests per page, second pass',
      value: second.extractRequestsPerPage.toFixed(3),
      target: `≤ ${TARGETS.extractRequestsPerPage}`,
      met: second.extractRequestsPerPage <= TARGETS.extractRequestsPerPage,
    },
    {
      name: 'Goal steps from the cache, second pass',
      value: percent(second.cachedStepShare),
      target: `≥ ${TARGETS.cachedStepShare * 100}%`,
      met: second.cachedStepShare === undefined ? undefined : second.cachedStepShare >= TARGETS.cachedStepShare,
    },
    {
      name: "Replayed step's non-model time against a model step's",
      value: overhead === undefined ? '–' : `${ms(replayed.medianNonModelMs)} vs ${ms(model.medianNonModelMs)} (${overhead >= 0 ? '+' : ''}${(overhead * 100).toFixed(1)}%)`,
      target: `within ${TARGETS.replayOverhead * 100}%`,
      met: overhead === undefined ? undefined : overhead <= TARGETS.replayOverhead,
    },
  ]
}

export function renderTargets(checks: readonly TargetCheck[]): string {
  const verdict = (met: boolean | undefined) => (met === undefined ? 'NOT MEASURED' : met ? 'met' : 'MISSED')
  return checks.map((check) => `- ${check.name}: ${check.value} (target ${check.target}): ${verdict(check.met)}`).join('\n')
}
