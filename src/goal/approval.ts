import type { TraceEntry } from '../../types/index.d.ts'
import type { RunSignal } from '../call/run-signal.ts'
import { BlockedError } from '../errors.ts'
import type { Settings } from '../options.ts'
import type { Step } from './step.ts'
import { pendingAction } from './tell-step.ts'

// The review of a risky action, apart from the loop: the threshold, the `approve` callback, and the
// stop when there is none to ask.

/** An action is risky (payment, purchase, deletion, sending) when the model rates it at least this likely to be. */
export const RISK_THRESHOLD = 0.5

/**
 * Whether the step may be carried out: always when it is not risky, otherwise as `approve` answers
 * (recorded in its trace entry). Without `approve` a risky step stops the run (`risk_review`).
 */
export async function approved(step: Step, text: string | undefined, approve: Settings['approve'], run: RunSignal, trace: TraceEntry[]): Promise<boolean> {
  const { risk } = step.decision
  if (risk === undefined || risk < RISK_THRESHOLD) return true
  const action = pendingAction(step, text)
  if (!approve) {
    throw new BlockedError(
      'risk_review',
      `The model rates ${step.named} as a payment, purchase, deletion or message (risk ${action.risk}); pass an approve callback to allow such actions.`,
      trace,
    )
  }
  // A callback that never answers must not hold the run: it races the signal like a page call.
  const answer = new Promise<unknown>((resolve) => resolve(approve(action)))
  const allowed = (await run.race(answer)) === true
  step.entry.approved = allowed
  return allowed
}
