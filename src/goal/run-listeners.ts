import type { Shot } from '../browser/viewport-screenshot.ts'
import type { Observation } from '../collector/observation.ts'
import type { FinishedStep, RunEnd, RunListener } from '../record/run-listener.ts'

// The run's listeners told as one, so the loop says what happened once, however many follow the run.

export class RunListeners {
  readonly #listeners: RunListener[]

  constructor(listeners: readonly RunListener[]) {
    this.#listeners = [...listeners]
  }

  add(listener: RunListener): void {
    this.#listeners.push(listener)
  }

  /** The screenshot a listener took of the observed page, if one did. */
  observed(observation: Observation): Promise<Shot | undefined> | undefined {
    let shot: Promise<Shot | undefined> | undefined
    for (const listener of this.#listeners) {
      const taken = listener.observed?.(observation)
      shot ??= taken
    }
    return shot
  }

  /** What holds the input back, or undefined when no listener does. */
  beforeInput(): Promise<unknown> | undefined {
    const holds = this.#listeners.flatMap((listener) => (listener.beforeInput ? [listener.beforeInput()] : []))
    return holds.length > 0 ? Promise.all(holds) : undefined
  }

  stepFinished(step: FinishedStep): void {
    for (const listener of this.#listeners) listener.stepFinished?.(step)
  }

  async runFinished(end: RunEnd): Promise<void> {
    for (const listener of this.#listeners) await listener.runFinished?.(end)
  }
}
