import type { CacheStatus, ChecklistItem } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import type { DecideStepInput } from '../decision/decide-step.ts'
import type { Decision } from '../decision/decision.ts'
import type { FinishedStep, RunEnd, RunListener } from '../record/run-listener.ts'
import type { CacheSettings } from './cache-settings.ts'
import { GoalReplay } from './goal-replay.ts'

// The run's source of decisions, so the loop asks one thing whether the cache is on or not: the
// replay's recorded step where its entry fits the page (a decision that needs no request), the model's
// decision where it does not. As a listener it hears how each step ended (an acted one joins the
// run's path; a replayed one that was stale or declined hands the rest to the model) and, at the end,
// stores the path when the run earned it.

/** A decision and where it came from. */
export interface SourcedDecision {
  decision: Decision
  /** The replay gave it: no decision request was made. */
  cached: boolean
  /** It replays a recorded step: how the target was matched, and TYPE_TEXT's stored value when values are kept. */
  replayed?: { match: 'exact' | 'scored'; text: string | undefined }
}

/** One turn's question: the page, and what only a turn that needs it reads. */
export interface DecisionTurn {
  observation: Observation
  /** The page verifies the checklist: once every recorded step is replayed, DONE then needs no request. */
  verified(): boolean
  /** The request's input, built only when the model is asked: it may take a screenshot. */
  input(): DecideStepInput
}

/** `decideStep`, or the run's wrapper of it (which races it with the run). */
export type DecideStep = (input: DecideStepInput) => Promise<Decision>

export class ReplayedDecisions implements RunListener {
  readonly #decideStep: DecideStep
  readonly #replay: GoalReplay | undefined
  /** The caller turned the checklist off: a success nothing could verify is still stored. */
  readonly #checklistOff: boolean

  private constructor(decideStep: DecideStep, replay: GoalReplay | undefined, checklistOff: boolean) {
    this.#decideStep = decideStep
    this.#replay = replay
    this.#checklistOff = checklistOff
  }

  /** Every decision the model's: the cache is off. */
  static model(decideStep: DecideStep): ReplayedDecisions {
    return new ReplayedDecisions(decideStep, undefined, false)
  }

  /** The same model with the replay of `goal`'s entry for the page at `url` in front of it. */
  async withReplay(settings: CacheSettings, goal: string, url: string, checklistOff: boolean): Promise<ReplayedDecisions> {
    return new ReplayedDecisions(this.#decideStep, await GoalReplay.open(settings, goal, url), checklistOff)
  }

  /** The stored checklist, used in place of writing one. */
  get checklist(): ChecklistItem[] | undefined {
    return this.#replay?.checklist
  }

  async decide(turn: DecisionTurn): Promise<SourcedDecision> {
    const plan = this.#replay?.plan(turn.observation)
    if (plan?.kind === 'step') return { decision: plan.decision, cached: true, replayed: { match: plan.match, text: plan.text } }
    if (plan?.kind === 'verify' && turn.verified()) return { decision: { operation: 'DONE', decisionMs: 0 }, cached: true }
    const decision = await this.#decideStep(turn.input())
    // A scored match is carried out only as the model's own decision, with its own risk rating.
    const confirmed = this.#replay?.confirm(decision)
    return confirmed ? { decision, cached: false, replayed: { match: 'scored', text: confirmed.text } } : { decision, cached: false }
  }

  stepFinished(step: FinishedStep): void {
    const replay = this.#replay
    if (!replay) return
    if (step.acted) replay.record(step, step.entry.text, step.replayed)
    else if (step.replayed && step.entry.stale) replay.handOver(`the replayed ${step.named} was stale: ${step.entry.staleReason}`)
    else if (step.replayed && step.entry.refused !== undefined) replay.handOver(`the replayed ${step.named} was refused: ${step.entry.refused}`)
    else if (step.replayed && step.entry.approved === false) replay.handOver(`approve declined the replayed ${step.named}`)
  }

  /** `hit`, `healed` or `miss`; undefined with the cache off. */
  status(end: RunEnd): CacheStatus | undefined {
    return this.#replay?.status(end)
  }

  async runFinished(end: RunEnd): Promise<void> {
    await this.#replay?.save(end, this.#checklistOff)
  }
}
