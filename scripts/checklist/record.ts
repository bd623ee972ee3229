import type { ChecklistReport, FailureTag } from '../../types/index.d.ts'

/** The two arms of the benchmark: the same task with the checklist off, and on. */
export type Arm = 'off' | 'on'
export const ARMS: readonly Arm[] = ['off', 'on']

/** One run of one task in one arm: one JSON line of `npm run bench:checklist`. */
export interface ChecklistRunRecord {
  task: string
  arm: Arm
  /** 1-based repetition of the task. */
  run: number
  /** What the agent reported. */
  status: 'success' | 'error'
  error?: string
  failure?: FailureTag
  /** The agent's own `verified`: every checkable checklist item proven on the page at the end. */
  agentVerified: boolean
  /** The harness's verdict on the final page (the task's verify block), whatever the agent reported. */
  verified: boolean
  /** The checks of the verify block that did not hold. */
  verifyFailed?: string[]
  finalUrl: string
  steps: number
  decisions: number
  /** Wall-clock time of the goal, the checklist request included. */
  goalMs: number
  /** The checklist as it stood at the end, in the `on` arm: what the agent held itself to. */
  checklist?: ChecklistReport
}
