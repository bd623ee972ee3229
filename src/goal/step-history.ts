import type { RecentAction } from '../decision/decision.ts'
import type { Step } from './step.ts'
import { recentAction } from './tell-step.ts'

// What the next requests are told of the steps so far, kept apart from the trace: the trace is the
// caller's record, this is the model's context.

export class StepHistory {
  readonly #actions: RecentAction[] = []

  /** The actions so far, as a request is given them: a copy, which later steps leave as it was. */
  recent(): RecentAction[] {
    return [...this.#actions]
  }

  add(step: Step, outcome: RecentAction['outcome'], detail?: string, text?: string): void {
    this.#actions.push(recentAction(step, outcome, detail, text))
  }
}
