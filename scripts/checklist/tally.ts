import type { FailureTag } from '../../types/index.d.ts'
import { median, tally } from '../common/stats.ts'
import { ARMS, type Arm, type ChecklistRunRecord } from './record.ts'

/** A failed run the agent gave no tag: counted apart, since every failed run should carry one. */
export const UNTAGGED = 'untagged'

/** What a set of runs adds up to. The harness's verdict overrides the agent's in both directions. */
export interface Counts {
  runs: number
  /** Runs the agent reported as `success`. */
  selfReported: number
  /** Runs whose final page passed the task's verify block, whatever the agent reported. */
  verified: number
  /** Runs reported as `success` whose final page failed the verify block. */
  falseSuccesses: number
  /** Runs the agent itself reported `verified` (its checklist proven on the page). */
  agentVerified: number
  /** Failed runs by their failure tag, most frequent first. */
  failures: Partial<Record<FailureTag | typeof UNTAGGED, number>>
}

export interface ArmSummary extends Counts {
  arm: Arm
  /** Median wall-clock time of a goal, the checklist request included. */
  medianGoalMs?: number
  medianDecisions?: number
}

export interface TaskSummary {
  task: string
  arms: Record<Arm, Counts>
}

export function count(records: readonly ChecklistRunRecord[]): Counts {
  return {
    runs: records.length,
    selfReported: records.filter((record) => record.status === 'success').length,
    verified: records.filter((record) => record.verified).length,
    falseSuccesses: records.filter((record) => record.status === 'success' && !record.verified).length,
    agentVerified: records.filter((record) => record.agentVerified).length,
    failures: tally(records.filter((record) => record.status !== 'success').map((record) => record.failure ?? UNTAGGED)),
  }
}

/** One summary per arm, `off` then `on`, arms without runs left out. */
export function summarizeArms(records: readonly ChecklistRunRecord[]): ArmSummary[] {
  return ARMS.flatMap((arm) => {
    const runs = records.filter((record) => record.arm === arm)
    if (runs.length === 0) return []
    const summary: ArmSummary = { arm, ...count(runs) }
    const goalMs = median(runs.map((record) => record.goalMs))
    const decisions = median(runs.map((record) => record.decisions))
    if (goalMs !== undefined) summary.medianGoalMs = Math.round(goalMs)
    if (decisions !== undefined) summary.medianDecisions = decisions
    return [summary]
  })
}

/** One summary per task, in the order tasks first appear, each with both arms. */
export function summarizeTasks(records: readonly ChecklistRunRecord[]): TaskSummary[] {
  const names = [...new Set(records.map((record) => record.task))]
  return names.map((task) => {
    const mine = records.filter((record) => record.task === task)
    return { task, arms: { off: count(mine.filter((record) => record.arm === 'off')), on: count(mine.filter((record) => record.arm === 'on')) } }
  })
}
