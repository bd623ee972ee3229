import type { Page } from 'puppeteer-core'
import { captureViewport, type Shot } from '../browser/viewport-screenshot.ts'
import type { RunSignal } from '../call/run-signal.ts'
import type { Settling } from '../executor/perform.ts'
import type { Snapshot } from '../collector/observation.ts'
import { scrubObservation, type Scrub } from '../secrets/scrub.ts'
import { SOURCE_QUALITY } from '../vision/badged-screenshot.ts'
import { observeSettled, type Observe } from './observe-settled.ts'
import type { RunListeners } from './run-listeners.ts'

// The page as the run last observed it, so the loop holds one thing for it: the snapshot (scrubbed as
// it enters the run), how long observing took, and the screenshot of it a decision may send.
// After an input, the page is observed while it settles; that observation is kept when settling
// ends with the page still as it was seen (settle.ts), and the page is observed again otherwise.

/**
 * When, as a share of the quiet awaited after an input, the page is observed while it settles: late
 * enough that what the input renders at once (its handlers, a timer, the next frame) is done, early
 * enough that the observation is back when the quiet is over.
 */
const AHEAD_AT_QUIET_SHARE = 0.5

/** An observation started while the page settles: waiting for its moment, then under way. */
interface Ahead {
  timer: NodeJS.Timeout | undefined
  snapshot: Promise<Snapshot | undefined> | undefined
}

export class ObservedPage {
  readonly #page: Page
  readonly #observe: Observe
  readonly #run: RunSignal
  /** The `secrets` scrubber, when the caller gave secrets. */
  readonly #scrub: Scrub | undefined
  readonly #listeners: RunListeners
  #snapshot: Snapshot | undefined
  #shot: Promise<Shot | undefined> | undefined
  #observeMs = 0
  /** How long the last observation made took (one made ahead included); unknown until one after the run's first. */
  #lastTookMs: number | undefined
  #ahead: Ahead | undefined

  constructor(page: Page, observe: Observe, run: RunSignal, scrub: Scrub | undefined, listeners: RunListeners) {
    this.#page = page
    this.#observe = observe
    this.#run = run
    this.#scrub = scrub
    this.#listeners = listeners
  }

  /** The newest snapshot; absent until the page was first observed. */
  get snapshot(): Snapshot | undefined {
    return this.#snapshot
  }

  get observeMs(): number {
    return this.#observeMs
  }

  /**
   * Observes the page while it settles after an input, at its moment (`AHEAD_AT_QUIET_SHARE`), unless
   * the page is busy then: its time would go to an observation that would not stand. Not after an
   * observation that took longer than the quiet either: a slow one holds up the page's own answer to
   * the input and is made again when that answer changes the page, while one that stands spares at
   * most the part of the quiet that was left. A failure only means the page is observed again once
   * settled.
   */
  observeAhead({ quietMs, inputAt, busy }: Settling): void {
    this.#dropAhead()
    if (this.#lastTookMs !== undefined && this.#lastTookMs > quietMs) return
    const ahead: Ahead = { timer: undefined, snapshot: undefined }
    const start = () => {
      ahead.timer = undefined
      if (busy()) return
      ahead.snapshot = this.#timed(this.#observe(this.#page, { previous: this.#snapshot })).catch(() => undefined)
    }
    ahead.timer = setTimeout(start, Math.max(0, inputAt + quietMs * AHEAD_AT_QUIET_SHARE - performance.now()))
    this.#ahead = ahead
  }

  /**
   * The page as it is now, told to the listeners. `aheadStands`: settling found the page as the
   * observation made meanwhile saw it, which is then taken as it is.
   */
  async observe(popups: string[], aheadStands = false): Promise<Snapshot> {
    const started = performance.now()
    const ahead = this.#takeAhead()
    const early = ahead && (await this.#run.race(ahead, (late) => late?.dispose()))
    if (early && aheadStands) {
      early.observation.popups = [...popups]
      this.#snapshot = early
    } else {
      // One made ahead that does not stand hands its memory on, as the last observation does.
      const observing = observeSettled(this.#observe, this.#page, { previous: early ?? this.#snapshot, popups })
      this.#snapshot = await this.#run.race(this.#timed(observing), (late) => late.dispose())
    }
    // Scrubbed as it enters the run: every reader after this (requests, checklist, cache, recording,
    // trace) sees placeholders, never a value the page echoes.
    if (this.#scrub) this.#snapshot.observation = scrubObservation(this.#snapshot.observation, this.#scrub)
    this.#observeMs = Math.round(performance.now() - started)
    this.#shot = this.#listeners.observed(this.#snapshot.observation)
    return this.#snapshot
  }

  /**
   * vision's screenshot of the page: a listener's (a recording's, taken while the model is asked), or
   * one taken now, only for a step the model decides (a replayed step needs no image).
   */
  screenshot(): Promise<Shot | undefined> {
    return (this.#shot ??= captureViewport(this.#page, SOURCE_QUALITY))
  }

  /**
   * Notes how long an observation took, but for the page's first: that one installs the page script
   * and runs its code cold, and says little of what the next will take.
   */
  async #timed(observing: Promise<Snapshot>): Promise<Snapshot> {
    const started = performance.now()
    const snapshot = await observing
    if (this.#snapshot) this.#lastTookMs = performance.now() - started
    return snapshot
  }

  /** The observation made ahead, once under way; one still waiting for its moment is not made. */
  #takeAhead(): Promise<Snapshot | undefined> | undefined {
    const ahead = this.#ahead
    this.#ahead = undefined
    if (ahead?.timer) clearTimeout(ahead.timer)
    return ahead?.snapshot
  }

  /** An observation made ahead that nothing will take is let go. */
  #dropAhead(): void {
    void this.#takeAhead()?.then((late) => late?.dispose())
  }

  /** Lets the page go: nothing that needs it is waited for once the run has ended. */
  async dispose(): Promise<void> {
    this.#dropAhead()
    await this.#run.race(this.#snapshot?.dispose() ?? Promise.resolve()).catch(() => {})
  }
}
