import type { Page } from 'puppeteer-core'
import { captureViewport, type Shot } from '../browser/viewport-screenshot.ts'
import type { RunSignal } from '../call/run-signal.ts'
import type { Snapshot } from '../collector/observation.ts'
import { scrubObservation, type Scrub } from '../secrets/scrub.ts'
import { SOURCE_QUALITY } from '../vision/badged-screenshot.ts'
import { observeSettled, type Observe } from './observe-settled.ts'
import type { RunListeners } from './run-listeners.ts'

// The page as the run last observed it, so the loop holds one thing for it: the snapshot (scrubbed as
// it enters the run), how long observing took, and the screenshot of it a decision may send.

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

  /** The page as it is now, told to the listeners. */
  async observe(popups: string[]): Promise<Snapshot> {
    const started = performance.now()
    const observing = observeSettled(this.#observe, this.#page, { previous: this.#snapshot, popups })
    this.#snapshot = await this.#run.race(observing, (late) => late.dispose())
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

  /** Lets the page go: nothing that needs it is waited for once the run has ended. */
  async dispose(): Promise<void> {
    await this.#run.race(this.#snapshot?.dispose() ?? Promise.resolve()).catch(() => {})
  }
}
