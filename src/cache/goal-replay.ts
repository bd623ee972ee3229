import type { CacheStatus, ChecklistItem, TraceEntry } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import { FOCUSED_TARGET, specOf } from '../operations.ts'
import { log } from '../base/log.ts'
import type { DecidedStep, RunEnd } from '../record/run-listener.ts'
import type { CacheSettings } from './cache-settings.ts'
import { readEntry, writeEntry } from './cache-store.ts'
import { GOAL_ENTRY_VERSION, parseGoalEntry, type GoalEntry, type RecordedStep } from './goal-entry.ts'
import { matchTarget, recordTarget } from './match-target.ts'
import { cacheKey, pageShape } from './page-shape.ts'
import { withoutValues } from './value-free.ts'

// The goal loop's side of the replay cache: the entry found for the goal and its start page, the next
// recorded step as a decision on the current observation (or the moment the model takes over), the
// steps of this run as they are acted, and the entry written when the run succeeded.

/** What the loop does next for the cache. */
export type ReplayPlan =
  /** Carry out this recorded step, matched exactly: no decision request. `text` is TYPE_TEXT's stored value, when kept. */
  | { kind: 'step'; decision: Decision; text: string | undefined; match: 'exact' }
  /** Every recorded step was replayed and the caller allows DONE without a request once the page verifies it. */
  | { kind: 'verify' }
  /**
   * Ask the model: no entry, the model has taken over, the confirmation of DONE, or a step matched
   * only by score (`confirm` then says whether the model chose what the replay found).
   */
  | { kind: 'model' }

export class GoalReplay {
  readonly #settings: CacheSettings
  readonly #key: string
  readonly #goal: string
  readonly #start: string
  readonly #entry: GoalEntry | undefined
  /** The next recorded step to replay; the entry's length once all were. */
  #next = 0
  #handedOver: string | undefined
  #scored = false
  /** The step of the last plan, when it matched only by score: it waits for the model's decision. */
  #unconfirmed: { decision: Omit<Decision, 'decisionMs'>; text: string | undefined; name: string } | undefined
  /** The model chose something other than DONE after the replay: the path changed. */
  #modelActed = false
  readonly #steps: RecordedStep[] = []
  /** The values typed in this run, for keeping them out of an entry written without values. */
  readonly #typed: string[] = []
  #typedPassword = false

  private constructor(settings: CacheSettings, goal: string, start: string, entry: GoalEntry | undefined) {
    this.#settings = settings
    this.#goal = goal
    this.#start = start
    this.#key = cacheKey('goal', [goal, start])
    this.#entry = entry
  }

  /** Reads the entry of `goal` on the page at `url`; anything unreadable is a miss, logged. */
  static async open(settings: CacheSettings, goal: string, url: string): Promise<GoalReplay> {
    const start = pageShape(url)
    const key = cacheKey('goal', [goal, start])
    const stored = await readEntry(settings.store, key)
    if (stored === undefined) return new GoalReplay(settings, goal, start, undefined)
    const parsed = parseGoalEntry(stored, goal)
    if ('invalid' in parsed) {
      log('cache: the goal entry %s is not usable, the model decides: %s', key, parsed.invalid)
      return new GoalReplay(settings, goal, start, undefined)
    }
    return new GoalReplay(settings, goal, start, parsed.entry)
  }

  /** The stored checklist, used in place of writing one. */
  get checklist(): ChecklistItem[] | undefined {
    return this.#entry?.checklist
  }

  /** What to do on `observation`: the next recorded step matched on it, or the model. */
  plan(observation: Observation): ReplayPlan {
    const entry = this.#entry
    if (!entry || this.#handedOver !== undefined) return { kind: 'model' }
    const recorded = entry.steps[this.#next]
    if (!recorded) return this.#settings.confirmDone ? { kind: 'model' } : { kind: 'verify' }
    const started = performance.now()
    const found = this.#find(recorded, observation)
    if ('miss' in found) {
      this.handOver(`step ${this.#next + 1} (${recorded.operation}): ${found.miss}`)
      return { kind: 'model' }
    }
    // The recorded risk rated the recorded control; a scored match is another one, which no model has
    // rated. The model decides that step, rating what it chooses, before anything is input.
    if (found.match === 'scored') {
      const name = observation.elements.find((element) => element.id === found.decision.target)?.name ?? ''
      this.#unconfirmed = { decision: found.decision, text: recorded.text, name }
      return { kind: 'model' }
    }
    this.#next += 1
    const decision: Decision = { ...found.decision, decisionMs: Math.round(performance.now() - started) }
    if (recorded.risk !== undefined) decision.risk = recorded.risk
    return { kind: 'step', decision, text: recorded.text, match: found.match }
  }

  /**
   * The model's decision on a step the replay matched only by score: when it chose the same action
   * on the same control, the step counts as replayed (TYPE_TEXT's stored `text` with it) and the
   * replay goes on; otherwise the model takes over. Undefined when the plan had no scored match.
   */
  confirm(decision: Decision): { text: string | undefined } | undefined {
    const pending = this.#unconfirmed
    this.#unconfirmed = undefined
    if (!pending || !this.replaying) return undefined
    const same = (['operation', 'target', 'option', 'key', 'to'] as const).every((field) => decision[field] === pending.decision[field])
    if (!same) {
      this.handOver(`step ${this.#next + 1} matched "${pending.name}" only by score, and the model chose another action (${decision.operation})`)
      return undefined
    }
    this.#next += 1
    this.#scored = true
    return { text: pending.text }
  }

  /** The model decides from here on: the page did not fit the entry. */
  handOver(reason: string): void {
    if (!this.#entry || this.#handedOver !== undefined) return
    this.#handedOver = reason
    log('cache: the model takes over from the replay: %s', reason)
  }

  /** Whether a step of the run is a replayed one still being carried out (its stale or refusal hands over). */
  get replaying(): boolean {
    return this.#entry !== undefined && this.#handedOver === undefined
  }

  /** A step acted on the page, replayed or decided, in the order taken. */
  record(step: DecidedStep & { typedPassword?: true; entry?: Pick<TraceEntry, 'edit'> }, text: string | undefined, cached: boolean): void {
    if (!cached && this.#entry && this.#handedOver === undefined) this.#modelActed = true
    const { decision, element, observation } = step
    const recorded: RecordedStep = {
      operation: decision.operation as RecordedStep['operation'],
      page: { shape: pageShape(observation.url), title: observation.title },
    }
    if (element) recorded.target = recordTarget(element, observation)
    if (specOf(decision.operation).target.kind === 'scroll') recorded.scroll = scrollName(observation, decision.target)
    if (step.optionLabel !== undefined) recorded.option = step.optionLabel
    if (decision.target === FOCUSED_TARGET && specOf(decision.operation).target.kind === 'element') recorded.onFocus = true
    if (decision.key) recorded.key = decision.key
    if (decision.to !== undefined) {
      const destination = observation.elements.find((candidate) => candidate.id === decision.to)
      recorded.to = destination ? recordTarget(destination, observation) : decision.to
    }
    if (text !== undefined) {
      this.#typed.push(text)
      // A field that was a password when typed into (it may have turned into one after it was observed).
      if (element?.type === 'password' || step.typedPassword) this.#typedPassword = true
      // An edit of part of a value is not stored: it was placed by the value the field held then, so
      // at replay the text model writes it again from the value the field holds by then.
      else if (this.#settings.typedValues && !step.entry?.edit) recorded.text = text
    }
    if (decision.risk !== undefined) recorded.risk = decision.risk
    this.#steps.push(recorded)
  }

  /** `hit`, `healed` or `miss` for a run that ended as `end`. */
  status(end: RunEnd): CacheStatus {
    if (!this.#entry || end.status !== 'success') return 'miss'
    return this.#followed() ? 'hit' : 'healed'
  }

  /**
   * Stores this run's path when it succeeded and the page verified it (or the caller turned the
   * checklist off, so nothing could), unless the entry it replayed is still exact.
   */
  async save(end: RunEnd, checklistOff: boolean): Promise<void> {
    if (end.status !== 'success' || (!end.verified && !checklistOff) || this.#steps.length === 0) return
    if (this.#followed() && !this.#scored) return
    const keepValues = this.#settings.typedValues
    const entry: GoalEntry = {
      version: GOAL_ENTRY_VERSION,
      kind: 'goal',
      page: this.#start,
      steps: keepValues ? this.#steps : withoutValues(this.#steps, this.#typed),
      savedAt: new Date().toISOString(),
    }
    // The goal may carry a value (a coupon code); without values the key, a digest of it, names the entry.
    if (keepValues) entry.goal = this.#goal
    // The checklist may name values typed; it is kept only where those are.
    if (end.checklist.source === 'model' && keepValues && !this.#typedPassword) {
      entry.checklist = end.checklist.items.map(({ description, check }) => ({ description, check }))
    }
    // What would be refused when read is not written: a later run would pay for reading it, then ask the model.
    const written = parseGoalEntry(entry, this.#goal)
    if ('invalid' in written) {
      log('cache: the goal entry %s is not stored: %s', this.#key, written.invalid)
      return
    }
    if (await writeEntry(this.#settings.store, this.#key, entry)) log('cache: stored %d steps of the goal under %s in %s', entry.steps.length, this.#key, this.#settings.where)
  }

  /** Every recorded step replayed, and the model added none. */
  #followed(): boolean {
    return this.#entry !== undefined && this.#handedOver === undefined && this.#next === this.#entry.steps.length && !this.#modelActed
  }

  #find(recorded: RecordedStep, observation: Observation): { decision: Omit<Decision, 'decisionMs'>; match: 'exact' | 'scored' } | { miss: string } {
    const shape = pageShape(observation.url)
    if (shape !== recorded.page.shape) return { miss: `the page is ${shape}, the step was recorded on ${recorded.page.shape}` }
    const target = specOf(recorded.operation).target
    if (target.kind === 'none') return { decision: { operation: recorded.operation }, match: 'exact' }
    if (target.kind === 'scroll') {
      const scroll = observation.scroll.find((candidate) => (candidate.id === 'page' ? 'page' : candidate.name) === recorded.scroll)
      if (!scroll) return { miss: `no scroll target "${recorded.scroll}"` }
      return { decision: { operation: recorded.operation, target: scroll.id }, match: 'exact' }
    }
    if (recorded.onFocus) return { decision: { operation: recorded.operation, target: FOCUSED_TARGET, key: recorded.key }, match: 'exact' }
    const found = matchTarget(recorded.target!, observation, target.capability)
    if ('miss' in found) return found
    const decision: Omit<Decision, 'decisionMs'> = { operation: recorded.operation, target: found.element.id }
    if (recorded.operation === 'SELECT') {
      const option = found.element.options?.find((candidate) => candidate.label === recorded.option)
      if (!option) return { miss: `"${found.element.name}" has no option "${recorded.option}"` }
      decision.option = option.id
    }
    if (recorded.key) decision.key = recorded.key
    if (typeof recorded.to === 'string') decision.to = recorded.to
    else if (recorded.to) {
      const destination = matchTarget(recorded.to, observation, 'drop')
      if ('miss' in destination) return { miss: `the destination: ${destination.miss}` }
      decision.to = destination.element.id
      if (destination.how === 'scored') return { decision, match: 'scored' }
    }
    return { decision, match: found.how }
  }
}

function scrollName(observation: Observation, id: string | undefined): string {
  if (id === undefined || id === 'page') return 'page'
  return observation.scroll.find((candidate) => candidate.id === id)?.name ?? id
}
