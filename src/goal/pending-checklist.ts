import type { TraceEntry } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import { unwritten, type GoalChecklist } from './goal-checklist.ts'

// The checklist is written beside the run, not before its first decision: the request goes out with
// the first decision request, from the first observation (whose controls it names items by), a
// decision request that comes before its answer goes without its lines, and it joins the requests once
// it is back. The observations it missed are kept until then, so the tracker sees the run from its
// start (what the first observation showed is still "met at start"); a DONE waits for it. A run that
// ends first cancels the request, and a cancelled request never fails the run.

export class PendingChecklist {
  readonly #cancel = new AbortController()
  readonly #signal: AbortSignal
  /** Settles once the checklist is back or the request is over; never rejects. */
  readonly #request: Promise<void>
  #arrived: GoalChecklist | undefined
  /** A failure other than the run's end or the cancellation: it fails the run, as a thrown request does. */
  #failed: { error: unknown } | undefined
  /** Observations the checklist has not seen yet, each with the trace's length when it was the newest. */
  readonly #missed: { observation: Observation; seen: number }[] = []
  /** A decision turn asked for it: a run that ends before that reports none. */
  #needed = false

  /** `write` starts the request at once; `run` is the run's signal, which cancels it too. */
  constructor(write: (signal: AbortSignal) => Promise<GoalChecklist>, run: AbortSignal) {
    this.#signal = AbortSignal.any([run, this.#cancel.signal])
    this.#request = write(this.#signal).then(
      (checklist) => {
        this.#arrived = checklist
      },
      (error: unknown) => {
        if (!this.#signal.aborted) this.#failed = { error }
      },
    )
  }

  /**
   * Settles once the checklist is back or the current turn of the event loop is over: a text model that
   * answers at once (the offline one, a cache) is in the first request, and a provider's is not waited for.
   */
  soon(): Promise<void> {
    return Promise.race([this.#request, new Promise<void>((resolve) => setImmediate(resolve))])
  }

  /** The checklist, brought up to date with `observation` and the trace; undefined while it is written. */
  update(observation: Observation, trace: TraceEntry[]): GoalChecklist | undefined {
    this.#needed = true
    if (this.#failed) throw this.#failed.error
    this.#missed.push({ observation, seen: trace.length })
    return this.#caughtUp(trace)
  }

  /** The checklist once it is back, up to date with the observations so far (a DONE is judged on it). */
  async settled(trace: TraceEntry[]): Promise<GoalChecklist> {
    await this.#request
    if (this.#failed) throw this.#failed.error
    return this.#caughtUp(trace) ?? Promise.reject(this.#signal.reason)
  }

  /** At the run's end: the checklist a decision turn asked for, up to date; a request still out is cancelled. */
  end(trace: TraceEntry[]): GoalChecklist | undefined {
    if (!this.#arrived) this.#cancel.abort(new Error('The run ended before the checklist was written.'))
    if (!this.#needed) return undefined
    return this.#caughtUp(trace) ?? unwritten('The run ended before the text model had written the checklist, so its request was cancelled.')
  }

  /** Shows the checklist, once it is back, every observation it missed, in order, with the trace as it was then. */
  #caughtUp(trace: TraceEntry[]): GoalChecklist | undefined {
    const checklist = this.#arrived
    if (!checklist) return undefined
    for (const { observation, seen } of this.#missed.splice(0)) checklist.update(observation, trace.slice(0, seen))
    return checklist
  }
}
