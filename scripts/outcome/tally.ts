import { share, tally } from '../common/stats.ts'
import type { TargetCheck } from '../reach/tally.ts'
import type { OutcomeRecord } from './record.ts'

// The figures of bench:outcome (issue 43, "the outcome tells the truth"): does the status agree with
// the case's own check, and does `verified` hold for the runs that truly succeeded? Plain data, so the
// JSON summary can hold it and two checkouts can be compared.

export const TARGETS = { disagreements: 0, verifiedShare: 0.8, falseVerified: 0 } as const

/** Reported a success the page does not show. */
export const isFalseSuccess = (record: OutcomeRecord) => record.status === 'success' && !record.check
/** Reported a failure although the page shows the task done. */
export const isFalseFailure = (record: OutcomeRecord) => record.status === 'error' && record.check
/** Verified although the page does not show the task done. */
export const isFalseVerified = (record: OutcomeRecord) => record.verified && !record.check
/** Truly succeeded and not verified. */
export const isUnverifiedPass = (record: OutcomeRecord) => record.check && !record.verified

export interface OutcomeTotals {
  runs: number
  /** Runs the goal gave no result for: counted apart from the agreement figures. */
  noResult: number
  falseSuccesses: number
  falseFailures: number
  /** Runs whose status disagrees with the check: false successes and false failures. */
  disagreements: number
  /** Runs whose check passed: the ones that truly succeeded. */
  passed: number
  /** Of those, the runs the agent called `verified`. */
  verifiedPassed: number
  verifiedShare: number | undefined
  falseVerified: number
  /** Checklist items reported unproven, by the reason the result gives. */
  unproven: Partial<Record<string, number>>
  /** Runs that did not succeed, by failure tag. */
  failures: Partial<Record<string, number>>
}

export function outcomeTotals(records: readonly OutcomeRecord[]): OutcomeTotals {
  const count = (test: (record: OutcomeRecord) => boolean) => records.filter(test).length
  const passed = count((record) => record.check)
  const verifiedPassed = count((record) => record.check && record.verified)
  const falseSuccesses = count(isFalseSuccess)
  const falseFailures = count(isFalseFailure)
  const reasons = records.flatMap((record) => record.checklist?.items.flatMap((item) => (item.unproven ? [String(item.unproven)] : [])) ?? [])
  return {
    runs: records.length,
    noResult: count((record) => record.status === 'no_result'),
    falseSuccesses,
    falseFailures,
    disagreements: falseSuccesses + falseFailures,
    passed,
    verifiedPassed,
    verifiedShare: share(verifiedPassed, passed),
    falseVerified: count(isFalseVerified),
    unproven: tally(reasons),
    failures: tally(records.filter((record) => record.status === 'error').map((record) => record.failure ?? 'untagged')),
  }
}

export function checkTargets(totals: OutcomeTotals): TargetCheck[] {
  const percent = totals.verifiedShare === undefined ? '–' : `${(totals.verifiedShare * 100).toFixed(1)}%`
  return [
    {
      name: 'Runs whose status disagrees with the check',
      value: `${totals.disagreements} (${totals.falseSuccesses} false successes, ${totals.falseFailures} false failures)`,
      target: String(TARGETS.disagreements),
      met: totals.disagreements === TARGETS.disagreements,
    },
    {
      name: '`verified` among the runs whose check passed',
      value: `${percent} (${totals.verifiedPassed} of ${totals.passed})`,
      target: `≥ ${TARGETS.verifiedShare * 100}%`,
      met: totals.verifiedShare === undefined ? undefined : totals.verifiedShare >= TARGETS.verifiedShare,
    },
    {
      name: '`verified` runs whose check failed',
      value: String(totals.falseVerified),
      target: String(TARGETS.falseVerified),
      met: totals.falseVerified === TARGETS.falseVerified,
    },
  ]
}
