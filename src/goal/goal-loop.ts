import type { Page } from 'puppeteer-core'
import type { BlockedReason, ConsentReport, DialogRecord, TraceEntry } from '../../types/index.d.ts'
import type { Ledger } from '../base/ledger.ts'
import { logStep } from '../base/log.ts'
import { ReplayedDecisions } from '../cache/replayed-decisions.ts'
import { watchRun, type RunSignal } from '../call/run-signal.ts'
import type { Observation, Snapshot } from '../collector/observation.ts'
import { consentFailure, dismissConsent } from '../consent/dismiss-consent.ts'
import { BlockedError } from '../errors.ts'
import type { ActionOutcome, CheckFreshness } from '../executor/act.ts'
import { watchPageEvents, type PageEvents } from '../executor/page-events.ts'
import { onElement } from '../operations.ts'
import type { Settings } from '../options.ts'
import type { RunListener } from '../record/run-listener.ts'
import { scrubberOf, type Scrub } from '../secrets/scrub.ts'
import { actStep, type ActContext } from './act-step.ts'
import { approved } from './approval.ts'
import { confidenceShortfall } from './confidence.ts'
import { failedWith, loopOutcome, type LoopOutcome } from './loop-outcome.ts'
import { ModelRequests, type ModelParts } from './model-requests.ts'
import type { Observe } from './observe-settled.ts'
import { ObservedPage } from './observed-page.ts'
import { pageBlock } from './page-blockers.ts'
import { PendingChecklist } from './pending-checklist.ts'
import { NO_CHANGE_LIMIT, NoChangeGuard, pageChanged, STALE_LIMIT, StaleGuard } from './progress-guards.ts'
import { RunListeners } from './run-listeners.ts'
import { scrubbedEvents } from './scrubbed-events.ts'
import { beginStep, finishedStep, type Step } from './step.ts'
import { StepHistory } from './step-history.ts'
import { actionDetail } from './tell-step.ts'

// The goal loop only orchestrates: it keeps the run's trace, history, guards, checklist and counters,
// and takes each turn through its phases. Where a decision comes from (the replay cache, the model) is
// the decision source's business, and what follows the run (a recording) listens to its steps.

/** The parts the loop ties together; run-goal passes the real ones. */
export interface GoalParts extends ModelParts {
  observe: Observe
  checkFreshness: CheckFreshness
}

/**
 * Observe → decide → guard → act → settle, until the model chooses DONE or the run has to stop.
 * Never throws: a stop is a BlockedError in `error`, anything else the error as thrown. Every await
 * races the run's signal, so an abort, a closed page or a lost browser ends the run at once, however
 * long the page keeps a call pending.
 */
export function runGoalLoop(page: Page, goal: string, settings: Settings, parts: GoalParts, ledger: Ledger, listeners: readonly RunListener[] = []): Promise<LoopOutcome> {
  return new GoalRun(page, goal, settings, parts, ledger, listeners).run()
}

/** Waits for both, then fails with the first failure: neither is left running when the run goes on to its end. */
async function bothSettled(first: Promise<unknown>, second: Promise<unknown>): Promise<void> {
  const settled = await Promise.allSettled([first, second])
  for (const result of settled) if (result.status === 'rejected') throw result.reason
}

class GoalRun {
  readonly #page: Page
  readonly #goal: string
  /** The caller's settings, with the run's signal as `signal`: model requests end with the run. */
  readonly #settings: Settings
  readonly #run: RunSignal
  readonly #callerSignal: AbortSignal | undefined
  readonly #parts: GoalParts
  readonly #models: ModelRequests
  /** Replaces the `secrets` values in whatever the page hands over; the identity without secrets. */
  readonly #scrub: Scrub
  readonly #listeners: RunListeners
  readonly #view: ObservedPage
  /** What carrying out a step needs of the run. */
  readonly #acting: ActContext
  readonly #trace: TraceEntry[] = []
  readonly #history = new StepHistory()
  readonly #noChange = new NoChangeGuard()
  readonly #staleStreak = new StaleGuard()
  /** The model's decisions, with the replay cache in front of it once it is opened. */
  #source: ReplayedDecisions
  #events: PageEvents | undefined
  /** Asked for with the first decision (or taken from the caller); absent until then. */
  #checklist: PendingChecklist | undefined
  /** A DONE was already refused for open checklist items: the next one with items open ends the run. */
  #doneRefused = false
  #steps = 0
  #decisions = 0
  /** The step in progress, logged and told to the listeners once it is over (at the next decision or the end). */
  #open: Step | undefined
  #stepStarted = performance.now()
  #consent: ConsentReport | undefined

  constructor(page: Page, goal: string, settings: Settings, parts: GoalParts, ledger: Ledger, listeners: readonly RunListener[]) {
    this.#page = page
    this.#goal = goal
    this.#callerSignal = settings.signal
    this.#run = watchRun(page, settings.signal)
    this.#settings = { ...settings, signal: this.#run.signal }
    this.#parts = parts
    this.#scrub = scrubberOf(settings.secrets)
    this.#listeners = new RunListeners(listeners)
    this.#view = new ObservedPage(page, parts.observe, this.#run, settings.secrets.length > 0 ? this.#scrub : undefined, this.#listeners)
    this.#acting = {
      page,
      settings: this.#settings,
      run: this.#run,
      checkFreshness: parts.checkFreshness,
      listeners: this.#listeners,
      whileSettling: (timing) => this.#view.observeAhead(timing),
    }
    this.#models = new ModelRequests(parts, goal, this.#settings, ledger, this.#run)
    this.#source = ReplayedDecisions.model((input) => this.#models.decide(input))
  }

  async run(): Promise<LoopOutcome> {
    const run = this.#run
    const { consent } = this.#settings
    try {
      // Dialogs are answered from here on, so no observation can be held by one.
      const events = watchPageEvents(this.#page)
      this.#events = scrubbedEvents(events, this.#scrub)
      // What the first action needs (the popup session, the page's focus, the replay) is readied while the
      // page is first observed; the consent step acts on the page, so it waits for it and comes before
      // the observation.
      const ready = run.race(this.#ready(events))
      if (consent) {
        await ready
        // Before the first observation, so the model never sees the banner; it never fails the run.
        this.#consent = await run.race(dismissConsent(this.#page, consent, this.#events))
        const failure = consentFailure(this.#consent)
        if (failure) throw new Error(failure)
        await this.#view.observe([])
      } else {
        await bothSettled(ready, this.#view.observe([]))
      }
      while (!(await this.#step())) {
        // Each turn is one decision, asked of the model unless the replay has it.
      }
      return await this.#finish('success')
    } catch (error) {
      return await this.#finish('error', await run.explain(error))
    } finally {
      // The listeners come off at once; what needs the page is not waited for once the run has ended.
      await run.race(this.#events?.dispose() ?? Promise.resolve()).catch(() => {})
      await this.#view.dispose()
      run.dispose()
    }
  }

  /** The popup session open, the page focused and, with a cache, the replay found by the page the goal starts on. */
  async #ready(events: PageEvents): Promise<void> {
    const { cache } = this.#settings
    const url = this.#scrub(this.#page.url())
    // A page in a background tab (several pages of one window, as a crawler opens them) gets every
    // mouse move held by Chrome for about 5 s: the page the agent acts on behaves as focused.
    await Promise.all([events.ready, this.#page.emulateFocusedPage(true)])
    if (!cache) return
    this.#source = await this.#run.race(this.#source.withReplay(cache, this.#goal, url, this.#settings.checklist === false))
    this.#listeners.add(this.#source)
  }

  /** One turn, phase by phase, on the page the last one left; true once DONE ends the run. */
  async #step(): Promise<boolean> {
    this.#closeStep()
    const snapshot = this.#view.snapshot!
    const step = await this.#decide(snapshot.observation)
    if (step.decision.operation === 'DONE') return this.#done(step)
    this.#review(step)
    const text = await this.#valueFor(step, snapshot)
    if (text === false) return false
    if (!(await approved(step, text, this.#settings.approve, this.#run, this.#trace))) return this.#declined(step, text)
    const { outcome, observationStands } = await actStep(step, snapshot, text, this.#acting)
    await this.#settle(step, outcome, text, observationStands)
    return false
  }

  /** Decide: the page's blockers and the decision budget, then a decision from the source and its confidence. */
  async #decide(observation: Observation): Promise<Step> {
    const settings = this.#settings
    const block = pageBlock(observation, { canLogIn: settings.secrets.length > 0 })
    if (block) this.#stop(block.reason, block.message)
    if (this.#decisions >= settings.maxDecisions) this.#stop('step_budget', `Used all ${settings.maxDecisions} decision requests (maxDecisions) before the goal was met.`)
    this.#run.signal.throwIfAborted()
    if (!this.#checklist) {
      // Asked for with the first decision, not before it (a page that stops the run at once costs no
      // request), and not waited for; the run's end cancels it.
      const first = observation
      this.#checklist = new PendingChecklist((signal) => this.#models.checklist(first, this.#source.checklist, signal), this.#run.signal)
      await this.#checklist.soon()
    }
    // Up to date with each observation once it is back; a request that comes before it goes without it.
    const checklist = this.#checklist.update(observation, this.#trace)
    const sourced = await this.#source.decide({
      observation,
      verified: () => checklist?.verified() === true,
      input: () => this.#models.decisionInput({
        observation,
        recent: this.#history.recent(),
        exclude: this.#noChange.exclusions(observation),
        checklist: checklist?.lines() ?? [],
        screenshot: settings.vision ? this.#view.screenshot() : undefined,
      }),
    })
    if (!sourced.cached) this.#decisions += 1
    // The model may echo a placeholder or guess a value: its note is scrubbed as page text is.
    if (sourced.decision.note !== undefined) sourced.decision.note = this.#scrub(sourced.decision.note)
    const step = beginStep(sourced, observation, { request: this.#decisions, step: this.#steps, observeMs: this.#view.observeMs })
    this.#trace.push(step.entry)
    this.#open = step
    checklist?.answer(step.decision, step.entry)
    const shortfall = confidenceShortfall(step.decision, settings.minConfidence, step.named)
    if (shortfall) this.#stop('low_confidence', shortfall)
    return step
  }

  /** Guard: an action is carried out only within the budget, on a target this observation has. */
  #review(step: Step): void {
    const { operation } = step.decision
    if (operation === 'BLOCKED') this.#stop('model_blocked', 'The decision model chose BLOCKED: it judged that the goal cannot be reached from this page.')
    if (this.#steps >= this.#settings.maxSteps) {
      this.#stop('step_budget', `Used all ${this.#settings.maxSteps} actions (maxSteps) before the goal was met; the model then chose ${step.named}.`)
    }
    if (onElement(operation, step.decision.target) && !step.element) throw new Error(`The decision chose ${step.named}, which is not an element of the current observation.`)
  }

  /**
   * TYPE_TEXT's value, stored or asked of the text model once the target is known to be fresh; false
   * when it is stale. An edit of part of the value goes on the entry, which the executor reads.
   */
  async #valueFor(step: Step, snapshot: Snapshot): Promise<string | undefined | false> {
    if (step.decision.operation !== 'TYPE_TEXT') return undefined
    // Checked before paying for the text: a stale target would waste the request.
    const early = await this.#run.race(this.#parts.checkFreshness(snapshot, step.decision.target!))
    if (!early.fresh) return this.#discardStale(step, early.reason)
    const stored = step.replay?.text
    if (stored !== undefined) return (step.entry.text = stored)
    const written = await this.#models.write(snapshot.observation, step.element!, this.#history.recent())
    step.entry.text = written.text
    if (written.edit) step.entry.edit = written.edit
    step.entry.textMs = written.textMs
    return written.text
  }

  /** Settle: the dialogs and popups the action brought, and its outcome, told to the next request. */
  async #settle(step: Step, outcome: ActionOutcome, text: string | undefined, observationStands: boolean): Promise<void> {
    const dialogs = this.#events!.takeDialogs()
    const popups = this.#events!.takePopups()
    if (dialogs.length > 0) step.entry.dialogs = dialogs
    if (popups.length > 0) step.entry.popups = popups
    if (!outcome.acted && 'redirected' in outcome) {
      this.#stop('input_redirected', `The input of ${step.named} did not land on its target: ${this.#scrub(outcome.redirected)}.`)
    }
    if (outcome.acted && outcome.password) step.typedPassword = true
    if (outcome.acted) await this.#acted(step, text, dialogs, popups, observationStands)
    else if ('refused' in outcome) await this.#refused(step, outcome.refused, text, popups)
    else await this.#discardStale(step, outcome.stale, popups)
  }

  /** A successful action: counted, the page observed again, and the outcome told to the next request. */
  async #acted(step: Step, text: string | undefined, dialogs: DialogRecord[], popups: string[], observationStands: boolean): Promise<void> {
    this.#staleStreak.fresh()
    this.#steps += 1
    step.entry.step = this.#steps
    step.acted = true
    const before = step.observation
    const after = (await this.#view.observe(popups, observationStands)).observation
    const changed = pageChanged(step.decision.operation, step.element, before, after)
    step.entry.pageChanged = changed
    const outcome = dialogs.length > 0 ? 'dialog' : changed ? 'page_changed' : 'no_change'
    this.#history.add(step, outcome, actionDetail(step.decision.operation, before, after, dialogs, popups), text)
    if (this.#noChange.record(step.decision.operation, step.identity, before, changed)) {
      this.#stop('no_change', `${NO_CHANGE_LIMIT} actions in a row left the page as it was (the last was ${step.named}).`)
    }
  }

  /** A stale decision spent a request, not an action: it is discarded and the page observed again. */
  async #discardStale(step: Step, pageReason: string, popups: string[] = []): Promise<false> {
    // A reason may name what the page put in the target's place.
    const reason = this.#scrub(pageReason)
    step.entry.stale = true
    step.entry.staleReason = reason
    this.#history.add(step, 'stale_discarded', reason)
    if (this.#staleStreak.stale(step.identity)) {
      this.#stop('stale_target', `${STALE_LIMIT} decisions in a row chose ${step.named} and it failed its freshness check each time (last: ${reason}).`)
    }
    await this.#view.observe(popups)
    return false
  }

  /** The executor refused the action before any input: the model is told why, and the page observed again. */
  async #refused(step: Step, reason: string, text: string | undefined, popups: string[]): Promise<void> {
    step.entry.refused = reason
    this.#history.add(step, 'refused', reason, text)
    await this.#view.observe(popups)
  }

  /** `approve` said no: the model is told, and the target is not offered again until the page changes. */
  async #declined(step: Step, text: string | undefined): Promise<false> {
    this.#history.add(step, 'declined', 'approve() declined this action; it is not offered again until the page changes', text)
    this.#noChange.ignore(step.decision.operation, step.identity, step.observation)
    this.#staleStreak.fresh()
    await this.#view.observe(this.#events!.takePopups())
    return false
  }

  /**
   * Check done: DONE ends the run once every checkable item is verified. With items open, the first
   * DONE is refused and the model told which; a second one ends the run with unverified_done, unless
   * every open item is gone with the page (a success, not verified). A DONE
   * that comes before the checklist waits for it: verifying needs it.
   */
  async #done(step: Step): Promise<boolean> {
    const checklist = await this.#models.waitFor(this.#checklist!.settled(this.#trace))
    const open = checklist.open()
    if (open.length === 0) return true
    const listed = open.map((item, index) => `${index + 1}. ${item}`).join('; ')
    if (this.#doneRefused && checklist.onlyGone()) {
      // Their controls left with the page after the run's last input: nothing can prove them any more.
      checklist.concede()
      return true
    }
    if (this.#doneRefused) this.#stop('unverified_done', `The model chose DONE again while checklist items were not verified on the page: ${listed}.`)
    this.#doneRefused = true
    step.entry.openItems = open
    this.#history.add(step, 'not_verified', `the page does not show these checklist items done yet: ${listed}`)
    return false
  }

  #stop(reason: BlockedReason, message: string): never {
    throw new BlockedError(reason, message, this.#trace)
  }

  /** Logs the step that just ended and tells the listeners: its decision, input and what came of it. */
  #closeStep(): void {
    if (this.#open) {
      logStep(this.#open.entry, performance.now() - this.#stepStarted)
      this.#listeners.stepFinished(finishedStep(this.#open))
    }
    this.#open = undefined
    this.#stepStarted = performance.now()
  }

  /** The outcome, told to the listeners (the replay stores the run's path when it earned it). */
  async #finish(status: LoopOutcome['status'], error?: unknown): Promise<LoopOutcome> {
    this.#closeStep()
    const kept = { steps: this.#steps, decisions: this.#decisions, trace: this.#trace, checklist: this.#checklist?.end(this.#trace), observation: this.#view.snapshot?.observation, consent: this.#consent }
    const failed = error === undefined ? undefined : failedWith(error, this.#scrub, { phase: this.#models.phase, callerAborted: this.#callerSignal?.aborted === true })
    const outcome = loopOutcome(status, kept, failed)
    const cache = this.#source.status(outcome)
    if (cache) outcome.cache = cache
    await this.#listeners.runFinished(outcome)
    return outcome
  }
}
