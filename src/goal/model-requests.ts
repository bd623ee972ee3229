import type { ChecklistItem } from '../../types/index.d.ts'
import type { Ledger } from '../base/ledger.ts'
import type { RunSignal } from '../call/run-signal.ts'
import type { Observation, ObservedElement } from '../collector/observation.ts'
import type { DecideStepInput } from '../decision/decide-step.ts'
import type { Decision, RecentAction } from '../decision/decision.ts'
import type { WriteTextInput, WrittenText } from '../decision/write-text.ts'
import type { Settings } from '../options.ts'
import type { Phase } from './failure-tag.ts'
import type { GoalChecklist, startChecklist } from './goal-checklist.ts'
import { fillPlaceholders } from '../secrets/placeholders.ts'

// The run's requests to models in one place, so each is raced with the run and pending as the `model`
// phase (which tags a failure as the model's), and the loop does not spell out what they share.

/** The model parts of a goal run; run-goal passes the real ones, a test its own. */
export interface ModelParts {
  decideStep(input: DecideStepInput): Promise<Decision>
  writeText(input: WriteTextInput): Promise<WrittenText>
  startChecklist: typeof startChecklist
}

export class ModelRequests {
  readonly #parts: ModelParts
  readonly #goal: string
  readonly #settings: Settings
  readonly #ledger: Ledger
  readonly #run: RunSignal
  #phase: Phase = 'page'

  constructor(parts: ModelParts, goal: string, settings: Settings, ledger: Ledger, run: RunSignal) {
    this.#parts = parts
    this.#goal = goal
    this.#settings = settings
    this.#ledger = ledger
    this.#run = run
  }

  /** What the run was waiting on: a model while a request is pending, otherwise the page. */
  get phase(): Phase {
    return this.#phase
  }

  /** A decision request's input: the turn's part, with what every request shares. */
  decisionInput(turn: Pick<DecideStepInput, 'observation' | 'recent' | 'exclude' | 'checklist' | 'screenshot'>): DecideStepInput {
    const { observation, recent, exclude, checklist, screenshot } = turn
    return { goal: this.#goal, observation, recent, settings: this.#settings, ledger: this.#ledger, exclude, checklist, screenshot }
  }

  decide(input: DecideStepInput): Promise<Decision> {
    return this.waitFor(this.#parts.decideStep(input))
  }

  /** TYPE_TEXT's value for `target`. */
  write(observation: Observation, target: ObservedElement, recent: RecentAction[]): Promise<WrittenText> {
    this.#run.signal.throwIfAborted()
    return this.waitFor(this.#parts.writeText({ goal: this.#goal, observation, target, recent, settings: this.#settings, ledger: this.#ledger }))
  }

  /**
   * The goal's checklist: the caller's, the stored one, or one the text model writes. Not raced with
   * the run: it is written beside the run's own steps, and `signal` (which ends with the run) cancels it.
   */
  checklist(observation: Observation, stored: ChecklistItem[] | undefined, signal: AbortSignal): Promise<GoalChecklist> {
    // The tracker compares values with the secrets filled in, inside the process.
    const resolve = (text: string) => fillPlaceholders(text, this.#settings.secrets)
    return this.#parts.startChecklist({ goal: this.#goal, resolve, observation, settings: { ...this.#settings, signal }, ledger: this.#ledger, stored })
  }

  /** Waits for a model's answer, raced with the run, as the `model` phase. */
  async waitFor<T>(request: Promise<T>): Promise<T> {
    this.#phase = 'model'
    const answer = await this.#run.race(request)
    this.#phase = 'page'
    return answer
  }
}
