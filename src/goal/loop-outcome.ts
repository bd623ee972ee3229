import type { CacheStatus, ConsentReport, FailureTag, GoalResult, TraceEntry } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import { toError } from '../errors.ts'
import { scrubError, type Scrub } from '../secrets/scrub.ts'
import { failureTag, type Phase } from './failure-tag.ts'
import type { GoalChecklist } from './goal-checklist.ts'

// What a goal loop hands back, and how it is put together from what the loop kept when the run ends:
// apart from the loop, so the shape reads without the machinery.

/** The result's fields a run fills in, and what the evaluator and the cache read after it. */
export interface LoopOutcome extends Pick<GoalResult, 'status' | 'steps' | 'decisions' | 'trace' | 'error' | 'failure' | 'checklist' | 'verified' | 'consent'> {
  /** The last observation made, for the evaluator; absent when the page was never observed. */
  observation?: Observation
  /** What the replay cache did, when it is on. */
  cache?: CacheStatus
}

/** What the loop kept of a run, when it ends. */
export interface KeptRun {
  steps: number
  decisions: number
  trace: TraceEntry[]
  checklist: GoalChecklist | undefined
  observation: Observation | undefined
  consent: ConsentReport | undefined
}

/** The outcome of a run that ended as `status`; `failed` is the error (already scrubbed) and its tag. */
export function loopOutcome(status: LoopOutcome['status'], kept: KeptRun, failed?: { error: Error; failure: FailureTag }): LoopOutcome {
  const { checklist, observation } = kept
  // The last action's outcome is in the trace now, and the page may have moved since the last step.
  if (checklist && observation) checklist.update(observation, kept.trace)
  const outcome: LoopOutcome = {
    status,
    steps: kept.steps,
    decisions: kept.decisions,
    trace: kept.trace,
    checklist: checklist?.report() ?? { source: 'none', items: [] },
    verified: status === 'success' && checklist?.verified() === true,
  }
  if (failed) Object.assign(outcome, failed)
  if (observation) outcome.observation = observation
  if (kept.consent) outcome.consent = kept.consent
  return outcome
}

/** The error that ended a run, scrubbed (it may quote the page: a frame's URL, a node's text), and its tag. */
export function failedWith(thrown: unknown, scrub: Scrub, context: { phase: Phase; callerAborted: boolean }): { error: Error; failure: FailureTag } {
  const error = scrubError(toError(thrown), scrub)
  return { error, failure: failureTag(error, context) }
}
