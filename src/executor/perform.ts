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
export type Performed = { outcome: ActionOutcome; actMs: number; observationStands: boolean } | { error: unknown; actMs: number }

/** What the goal loop is told of an input that reached the page, as settling starts. */
export interface Settling {
  /** The DOM quiet awaited after the input, and when the input was delivered (performance.now()). */
  quietMs: number
  inputAt: number
  /**
   * The page is loading a document or waiting on requests the input started: what they bring is
   * still to come, so an observation made now would seldom stand.
   */
  busy(): boolean
}

/**
 * Called once the input has reached the page and settling starts: the goal loop observes the page
 * meanwhile, and keeps that observation when settling ends with `observationStands`.
 */
export type WhileSettling = (settling: Settling) => void

/**
 * The quiet a combobox's field waits for after it is typed into: its suggestions come once typing has
 * paused, after a debounce of 100 to 300 ms, with no change to the page before them.
 */
const SUGGESTIONS_QUIET_MS = 350

/** How long the page must stay quiet after the input before it is observed. */
function quietAfter(input: ActionInput): number {
  const { operation } = input.decision
  if (operation === 'TYPE_TEXT' && input.element?.role === 'combobox') return SUGGESTIONS_QUIET_MS
  return specOf(operation).quietMs ?? SETTLE_BOUNDS.quietMs
}

/**
 * Carries out one decision: watches the page's activity from before the input, acts, and waits for
 * the page to settle after it (WAIT has already waited). Every await races `race`, so a page that
 * never answers cannot hold the run.
 */
export async function perform(input: ActionInput, race: Race, whileSettling?: WhileSettling): Promise<Performed> {
  input.signal?.throwIfAborted()
  const started = performance.now()
  const activity = watchActivity(input.page)
  const waiting = input.decision.operation === 'WAIT'
  const actMs = () => Math.max(0, Math.round(performance.now() - started - (waiting ? input.waitMs : 0)))
  try {
    const { outcome, observationStands } = await race(
      (async () => {
        const outcome = await act(input)
        if (!outcome.acted || waiting) return { outcome, observationStands: false }
        // The page's quiet is counted from the input itself, not from the checks read after it.
        const inputAt = outcome.inputAt || performance.now()
        const bounds = { ...SETTLE_BOUNDS, quietMs: quietAfter(input) }
        whileSettling?.({ quietMs: bounds.quietMs, inputAt, busy: () => activity.navigating || activity.inflight > 0 })
        const settled = await settle(input.page, activity, outcome.frames, bounds, inputAt, outcome.target)
        return { outcome, observationStands: settled.observationStands }
      })(),
    )
    return { outcome, actMs: actMs(), observationStands }
  } catch (error) {
    return { error, actMs: actMs() }
  } finally {
    activity.dispose()
  }
}
