import { act, type ActionInput, type ActionOutcome } from './act.ts'
import { watchActivity } from './page-activity.ts'
import { specOf } from '../operations.ts'
import { settle, SETTLE_BOUNDS } from './settle.ts'

/** Races a promise against the run's end; the goal loop passes its run signal's. */
export type Race = <T>(promise: Promise<T>) => Promise<T>

/**
 * What carrying out a decision came to, and how long its guard, input and settling took. WAIT's
 * pause is left out of `actMs`: it is the time the run chose to wait, not the page's. A failure once
 * the action has started is returned, not thrown, so that the time spent until it is still known.
 */
export type Performed = { outcome: ActionOutcome; actMs: number } | { error: unknown; actMs: number }

/**
 * Carries out one decision: watches the page's activity from before the input, acts, and waits for
 * the page to settle after it (WAIT has already waited). Every await races `race`, so a page that
 * never answers cannot hold the run.
 */
export async function perform(input: ActionInput, race: Race): Promise<Performed> {
  input.signal?.throwIfAborted()
  const started = performance.now()
  const activity = watchActivity(input.page)
  const waiting = input.decision.operation === 'WAIT'
  const actMs = () => Math.max(0, Math.round(performance.now() - started - (waiting ? input.waitMs : 0)))
  try {
    const outcome = await race(
      (async () => {
        const outcome = await act(input)
        // The page's quiet is counted from the input itself, not from the checks read after it.
        const inputAt = (outcome.acted && outcome.inputAt) || performance.now()
        const { quietMs } = specOf(input.decision.operation)
        if (outcome.acted && !waiting) await settle(input.page, activity, outcome.frames, quietMs ? { ...SETTLE_BOUNDS, quietMs } : SETTLE_BOUNDS, inputAt)
        return outcome
      })(),
    )
    return { outcome, actMs: actMs() }
  } catch (error) {
    return { error, actMs: actMs() }
  } finally {
    activity.dispose()
  }
}
