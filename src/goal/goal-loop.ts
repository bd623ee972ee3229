// Over 400 lines for a reason: the run's state (trace, history, guards, checklist, replay, recording,
// the observed page's screenshot) lives in one class whose methods are the step's phases; split up,
// every phase would pass all of that state around.
import type { Page } from 'puppeteer-core'
import type { BlockedReason, CacheStatus, ChecklistReport, ConsentReport, DialogRecord, FailureTag, TraceEntry } from '../../types/index.d.ts'
import { GoalReplay } from '../cache/goal-replay.ts'
import type { Observation, Snapshot } from '../collector/observation.ts'
import type { DecideStepInput } from '../decision/decide-step.ts'
import type { Decision, RecentAction } from '../decision/decision.ts'
import type { WriteTextInput, WrittenText } from '../decision/write-text.ts'
import { watchRun, type RunSignal } from '../call/run-signal.ts'
import { consentFailure, dismissConsent } from '../consent/dismiss-consent.ts'
import { BlockedError, toError } from '../errors.ts'
import type { ActionOutcome, CheckFreshness } from '../executor/act.ts'
import { watchPageEvents, type PageEvents } from '../executor/page-events.ts'
import { perform } from '../executor/perform.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../base/ledger.ts'
import type { RunRecorder } from '../record/run-recorder.ts'
import { captureViewport, JPEG_QUALITY, type Shot } from '../browser/viewport-screenshot.ts'
import { SOURCE_QUALITY } from '../vision/badged-screenshot.ts'
import { onElement } from '../operations.ts'
import { fillPlaceholders } from '../secrets/placeholders.ts'
import { scrubberOf, scrubError, scrubObservation, type Scrub } from '../secrets/scrub.ts'
import { logStep } from '../base/log.ts'
import { failureTag, type Phase } from './failure-tag.ts'
import { actionDetail, pendingAction, recentAction } from './tell-step.ts'
import { confidenceShortfall } from './confidence.ts'
import { startChecklist, type GoalChecklist } from './goal-checklist.ts'
import { observeSettled, type Observe } from './observe-settled.ts'
import { pageBlock } from './page-blockers.ts'
import { NO_CHANGE_LIMIT, NoChangeGuard, pageChanged, STALE_LIMIT, StaleGuard } from './progress-guards.ts'
import { beginReplayedStep, beginStep, type Step } from './step.ts'

/** An action is risky (payment, purchase, deletion, sending) when the model rates it at least this likely to be. */
export const RISK_THRESHOLD = 0.5

/** The parts the loop ties together; run-goal passes the real ones. */
export interface GoalParts {
  observe: Observe
  checkFreshness: CheckFreshness
  decideStep(input: DecideStepInput): Promise<Decision>
  writeText(input: WriteTextInput): Promise<WrittenText>
  startChecklist: typeof startChecklist
}

export interface LoopOutcome {
  status: 'success' | 'error'
  steps: number
  decisions: number
  trace: TraceEntry[]
  error?: Error
  /** Why the run did not succeed. */
  failure?: FailureTag
  checklist: ChecklistReport
  /** Succeeded, and every checkable checklist item was verified at the end. */
  verified: boolean
  /** The last observation made, for the evaluator; absent when the page was never observed. */
  observation?: Observation
  /** What clearing the consent banner did, when the `consent` option asked for it. */
  consent?: ConsentReport
  /** What the replay cache did, when it is on. */
  cache?: CacheStatus
}

/**
 * Observe → decide → guard → act → settle, until the model chooses DONE or the run has to stop.
 * Never throws: a stop is a BlockedError in `error`, anything else the error as thrown. Every await
 * races the run's signal, so an abort, a closed page or a lost browser ends the run at once, however
 * long the page keeps a call pending.
 */
export function runGoalLoop(page: Page, goal: string, settings: Settings, parts: GoalParts, ledger: Ledger, recorder?: RunRecorder): Promise<LoopOutcome> {
  return new GoalRun(page, goal, settings, parts, ledger, recorder).run()
}

class GoalRun {
  readonly #page: Page
  readonly #goal: string
  /** The caller's settings, with the run's signal as `signal`: model requests end with the run. */
  readonly #settings: Settings
  readonly #run: RunSignal
  readonly #callerSignal: AbortSignal | undefined
  readonly #parts: GoalParts
  readonly #ledger: Ledger
  readonly #recorder: RunRecorder | undefined
  /** Replaces the `secrets` values in whatever the page hands over; the identity without secrets. */
  readonly #scrub: Scrub
  readonly #trace: TraceEntry[] = []
  readonly #recent: RecentAction[] = []
  readonly #noChange = new NoChangeGuard()
  readonly #staleStreak = new StaleGuard()
  #events: PageEvents | undefined
  /** Written (or taken from the caller) just before the first decision; absent until then. */
  #checklist: GoalChecklist | undefined
  /** A DONE was already refused for open checklist items: the next one with items open ends the run. */
  #doneRefused = false
  /** What the run was waiting on, for the failure tag of an error. */
  #phase: Phase = 'page'
  #snapshot: Snapshot | undefined
  /** The screenshot of the snapshot's page, when vision or a recording needs one. */
  #shot: Promise<Shot | undefined> | undefined
  #observeMs = 0
  #steps = 0
  #decisions = 0
  // The step in progress, logged and recorded once it is over (at the next decision or the end).
  #open: Step | undefined
  #consent: ConsentReport | undefined
  #replay: GoalReplay | undefined
  #stepStarted = performance.now()

  constructor(page: Page, goal: string, settings: Settings, parts: GoalParts, ledger: Ledger, recorder: RunRecorder | undefined) {
    this.#page = page
    this.#goal = goal
    this.#callerSignal = settings.signal
    this.#run = watchRun(page, settings.signal)
    this.#settings = { ...settings, signal: this.#run.signal }
    this.#parts = parts
    this.#ledger = ledger
    this.#recorder = recorder
    this.#scrub = scrubberOf(settings.secrets)
  }

  async run(): Promise<LoopOutcome> {
    const run = this.#run
    try {
      // Answering dialogs needs the page to answer first; a watcher that arrives after the run is removed.
      this.#events = await run.race(watchPageEvents(this.#page), (late) => late.dispose())
      // A page in a background tab (several pages of one window, as a crawler opens them) gets every
      // mouse move held by Chrome for about 5 s: the page the agent acts on behaves as focused.
      await run.race(this.#page.emulateFocusedPage(true))
      // The entry is found by the page the goal starts on, before anything moves it.
      if (this.#settings.cache) this.#replay = await run.race(GoalReplay.open(this.#settings.cache, this.#goal, this.#scrub(this.#page.url())))
      // Before the first observation, so the model never sees the banner; it never fails the run.
      if (this.#settings.consent) {
        this.#consent = await run.race(dismissConsent(this.#page, this.#settings.consent, this.#events))
        const failure = consentFailure(this.#consent)
        if (failure) throw new Error(failure)
      }
      await this.#observe([])
      while (!(await this.#step())) {
        // Each turn is one decision request.
      }
      return await this.#finish('success')
    } catch (error) {
      return await this.#finish('error', await run.explain(error))
    } finally {
      // The listeners come off at once; what needs the page is not waited for once the run has ended.
      await run.race(this.#events?.dispose() ?? Promise.resolve()).catch(() => {})
      await run.race(this.#snapshot?.dispose() ?? Promise.resolve()).catch(() => {})
      run.dispose()
    }
  }

  /** One decision and what follows from it, phase by phase; true once the model has chosen DONE. */
  async #step(): Promise<boolean> {
    this.#closeStep()
    const snapshot = this.#snapshot!
    const { step, checklist } = await this.#decide(snapshot.observation)
    if (step.decision.operation === 'DONE') return this.#done(step, checklist)
    this.#review(step)
    const text = await this.#valueFor(step, snapshot)
    if (text === false) return false
    if (!(await this.#approved(step, text))) return this.#declined(step, text)
    const outcome = await this.#act(step, snapshot, text)
    await this.#record(step, outcome, text)
    return false
  }

  /** Decide: the page's blockers and the decision budget, then one decision request and its confidence. */
  async #decide(observation: Observation): Promise<{ step: Step; checklist: GoalChecklist }> {
    const settings = this.#settings
    const block = pageBlock(observation, { canLogIn: settings.secrets.length > 0 })
    if (block) this.#stop(block.reason, block.message)
    if (this.#decisions >= settings.maxDecisions) {
      this.#stop('step_budget', `Used all ${settings.maxDecisions} decision requests (maxDecisions) before the goal was met.`)
    }
    this.#run.signal.throwIfAborted()
    const checklist = await this.#checklistFor(observation)
    const replayed = this.#fromCache(observation, checklist)
    if (replayed) return { step: replayed, checklist }
    const deciding = this.#parts.decideStep({
      goal: this.#goal,
      observation,
      recent: [...this.#recent],
      settings,
      ledger: this.#ledger,
      exclude: this.#noChange.exclusions(observation),
      checklist: checklist.lines(),
      screenshot: settings.vision ? (this.#shot ??= captureViewport(this.#page, SOURCE_QUALITY)) : undefined,
    })
    const decision = await this.#waitOnModel(deciding)
    this.#decisions += 1
    const step = beginStep(decision, observation, { request: this.#decisions, step: this.#steps, observeMs: this.#observeMs })
    // A scored match is carried out only as the model's own decision, with its own risk rating.
    const confirmed = this.#replay?.confirm(decision)
    if (confirmed) {
      step.entry.match = 'scored'
      step.replay = confirmed
    }
    this.#trace.push(step.entry)
    this.#open = step
    const shortfall = confidenceShortfall(decision, settings.minConfidence, step.named)
    if (shortfall) this.#stop('low_confidence', shortfall)
    return { step, checklist }
  }

  /**
   * The next step from the replay cache, when its entry fits the page: no decision request. After the
   * last recorded step, a DONE of the cache's when the caller waived the confirmation and the page
   * verifies the checklist.
   */
  #fromCache(observation: Observation, checklist: GoalChecklist): Step | undefined {
    const plan = this.#replay?.plan(observation)
    if (!plan || plan.kind === 'model' || (plan.kind === 'verify' && !checklist.verified())) return undefined
    const planned = plan.kind === 'step' ? plan : { decision: { operation: 'DONE', decisionMs: 0 } as const }
    const step = beginReplayedStep(planned, observation, { request: this.#decisions, step: this.#steps, observeMs: this.#observeMs })
    this.#trace.push(step.entry)
    this.#open = step
    return step
  }

  /** Review: an action is carried out only within the budget, on a target this observation has. */
  #review(step: Step): void {
    const { operation } = step.decision
    if (operation === 'BLOCKED') {
      this.#stop('model_blocked', 'The decision model chose BLOCKED: it judged that the goal cannot be reached from this page.')
    }
    if (this.#steps >= this.#settings.maxSteps) {
      this.#stop('step_budget', `Used all ${this.#settings.maxSteps} actions (maxSteps) before the goal was met; the model then chose ${step.named}.`)
    }
    if (onElement(operation, step.decision.target) && !step.element) {
      throw new Error(`The decision chose ${step.named}, which is not an element of the current observation.`)
    }
  }

  /** TYPE_TEXT's value, asked of the text model once the target is known to be fresh; false when it is stale. */
  async #valueFor(step: Step, snapshot: Snapshot): Promise<string | undefined | false> {
    if (step.decision.operation !== 'TYPE_TEXT') return undefined
    // Checked before paying for the text: a stale target would waste the request.
    const early = await this.#run.race(this.#parts.checkFreshness(snapshot, step.decision.target!))
    if (!early.fresh) return this.#discardStale(step, early.reason)
    const stored = step.replay?.text
    if (stored !== undefined) return (step.entry.text = stored)
    this.#run.signal.throwIfAborted()
    const writing = this.#parts.writeText({
      goal: this.#goal,
      observation: snapshot.observation,
      target: step.element!,
      recent: [...this.#recent],
      settings: this.#settings,
      ledger: this.#ledger,
    })
    const written = await this.#waitOnModel(writing)
    step.entry.text = written.text
    step.entry.textMs = written.textMs
    return written.text
  }

  /** Review of a risky action: carried out only when `approve` allows it; without `approve` the run stops. */
  async #approved(step: Step, text: string | undefined): Promise<boolean> {
    const { risk } = step.decision
    if (risk === undefined || risk < RISK_THRESHOLD) return true
    const action = pendingAction(step, text)
    const approve = this.#settings.approve
    if (!approve) {
      this.#stop(
        'risk_review',
        `The model rates ${step.named} as a payment, purchase, deletion or message (risk ${action.risk}); pass an approve callback to allow such actions.`,
      )
    }
    // A callback that never answers must not hold the run: it races the signal like a page call.
    const answer = new Promise<unknown>((resolve) => resolve(approve!(action)))
    const approved = (await this.#run.race(answer)) === true
    step.entry.approved = approved
    return approved
  }

  /** Act: the executor guards, inputs and settles; the loop keeps the time it took. */
  async #act(step: Step, snapshot: Snapshot, text: string | undefined): Promise<ActionOutcome> {
    const input = {
      page: this.#page,
      snapshot,
      decision: step.decision,
      element: step.element,
      // The one place a secret's value replaces its placeholder: everything else keeps the placeholder.
      text: text === undefined ? undefined : fillPlaceholders(text, this.#settings.secrets),
      waitMs: this.#settings.waitMs,
      signal: this.#run.signal,
      checkFreshness: this.#parts.checkFreshness,
    }
    // A recording shows the page before the input: its screenshot, taken while the model was asked, is in.
    if (this.#recorder) await this.#run.race(this.#recorder.beforeInput())
    const performed = await perform(input, (promise) => this.#run.race(promise))
    step.entry.actMs = performed.actMs
    if ('error' in performed) throw performed.error
    return performed.outcome
  }

  /** Record: the dialogs and popups the action brought, and its outcome, told to the next request. */
  async #record(step: Step, outcome: ActionOutcome, text: string | undefined): Promise<void> {
    const dialogs = this.#events!.takeDialogs().map((dialog) => ({ ...dialog, message: this.#scrub(dialog.message) }))
    const popups = this.#takePopups()
    if (dialogs.length > 0) step.entry.dialogs = dialogs
    if (popups.length > 0) step.entry.popups = popups
    if (!outcome.acted && 'redirected' in outcome) {
      this.#stop('input_redirected', `The input of ${step.named} did not land on its target: ${this.#scrub(outcome.redirected)}.`)
    }
    if (outcome.acted && outcome.password) step.typedPassword = true
    if (outcome.acted) await this.#acted(step, text, dialogs, popups)
    else await this.#discardStale(step, outcome.stale, popups)
  }

  /** A model request of the run: the phase is `model` while it is pending, for the failure tag. */
  async #waitOnModel<T>(request: Promise<T>): Promise<T> {
    this.#phase = 'model'
    const answer = await this.#run.race(request)
    this.#phase = 'page'
    return answer
  }

  /** A successful action: counted, the page observed again, and the outcome told to the next request. */
  async #acted(step: Step, text: string | undefined, dialogs: DialogRecord[], popups: string[]): Promise<void> {
    this.#staleStreak.fresh()
    this.#steps += 1
    step.entry.step = this.#steps
    this.#replay?.record(step, text, step.replay !== undefined)
    const before = step.observation
    const after = (await this.#observe(popups)).observation
    const changed = pageChanged(step.decision.operation, step.element, before, after)
    step.entry.pageChanged = changed
    const outcome = dialogs.length > 0 ? 'dialog' : changed ? 'page_changed' : 'no_change'
    this.#remember(step, outcome, actionDetail(before, after, dialogs, popups), text)
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
    if (step.replay) this.#replay!.handOver(`the replayed ${step.named} was stale: ${reason}`)
    this.#remember(step, 'stale_discarded', reason)
    if (this.#staleStreak.stale(step.identity)) {
      this.#stop('stale_target', `${STALE_LIMIT} decisions in a row chose ${step.named} and it failed its freshness check each time (last: ${reason}).`)
    }
    await this.#observe(popups)
    return false
  }

  /**
   * The checklist, written on the first decision's turn (a page that stops the run at once costs no
   * request), and brought up to date with the newest observation.
   */
  async #checklistFor(observation: Observation): Promise<GoalChecklist> {
    if (!this.#checklist) {
      const started = this.#parts.startChecklist({
        goal: this.#goal,
        observation,
        settings: this.#settings,
        ledger: this.#ledger,
        stored: this.#replay?.checklist,
      })
      this.#checklist = await this.#waitOnModel(started)
    }
    this.#checklist.update(observation, this.#trace)
    return this.#checklist
  }

  /**
   * DONE ends the run once every checkable item is verified. With items open, the first DONE is refused
   * and the model told which; a second one ends the run with unverified_done.
   */
  #done(step: Step, checklist: GoalChecklist): boolean {
    const open = checklist.open()
    if (open.length === 0) return true
    const listed = open.map((item, index) => `${index + 1}. ${item}`).join('; ')
    if (this.#doneRefused) {
      this.#stop('unverified_done', `The model chose DONE again while checklist items were not verified on the page: ${listed}.`)
    }
    this.#doneRefused = true
    step.entry.openItems = open
    this.#remember(step, 'not_verified', `the page does not show these checklist items done yet: ${listed}`)
    return false
  }

  /** `approve` said no: the model is told, and the target is not offered again until the page changes. */
  async #declined(step: Step, text: string | undefined): Promise<false> {
    if (step.replay) this.#replay!.handOver(`approve declined the replayed ${step.named}`)
    this.#remember(step, 'declined', 'approve() declined this action; it is not offered again until the page changes', text)
    this.#noChange.ignore(step.decision.operation, step.identity, step.observation)
    this.#staleStreak.fresh()
    await this.#observe(this.#takePopups())
    return false
  }

  #remember(step: Step, outcome: RecentAction['outcome'], detail?: string, text?: string): void {
    this.#recent.push(recentAction(step, outcome, detail, text))
  }

  async #observe(popups: string[]): Promise<Snapshot> {
    const started = performance.now()
    const observing = observeSettled(this.#parts.observe, this.#page, { previous: this.#snapshot, popups })
    this.#snapshot = await this.#run.race(observing, (late) => late.dispose())
    // Scrubbed as it enters the run: every reader after this (requests, checklist, cache, recording,
    // trace) sees placeholders, never a value the page echoes.
    if (this.#settings.secrets.length > 0) this.#snapshot.observation = scrubObservation(this.#snapshot.observation, this.#scrub)
    this.#observeMs = Math.round(performance.now() - started)
    // A recording's screenshot is taken while the model is asked; vision shares it, or takes its own
    // only for a step the model decides (a step replayed from the cache needs no image).
    this.#shot = this.#recorder ? captureViewport(this.#page, this.#settings.vision ? SOURCE_QUALITY : JPEG_QUALITY) : undefined
    if (this.#shot) this.#recorder!.capture(this.#snapshot.observation, this.#shot)
    return this.#snapshot
  }

  /** The URLs of tabs the page opened since the last call, scrubbed: a URL may carry a typed value. */
  #takePopups(): string[] {
    return this.#events!.takePopups().map(this.#scrub)
  }

  #stop(reason: BlockedReason, message: string): never {
    throw new BlockedError(reason, message, this.#trace)
  }

  /** Logs and records the step that just ended: its decision, input and the observation that followed. */
  #closeStep(): void {
    if (this.#open) {
      logStep(this.#open.entry, performance.now() - this.#stepStarted)
      this.#recorder?.step(this.#open, this.#ledger.calls)
    }
    this.#open = undefined
    this.#stepStarted = performance.now()
  }

  /** The outcome, and the run's path stored when the cache is on and the run earned it. */
  async #finish(status: LoopOutcome['status'], error?: unknown): Promise<LoopOutcome> {
    this.#closeStep()
    const checklist = this.#checklist
    // The last action's outcome is in the trace now, and the page may have moved since the last step.
    if (checklist && this.#snapshot) checklist.update(this.#snapshot.observation, this.#trace)
    const outcome: LoopOutcome = {
      status,
      steps: this.#steps,
      decisions: this.#decisions,
      trace: this.#trace,
      checklist: checklist?.report() ?? { source: 'none', items: [] },
      verified: status === 'success' && checklist?.verified() === true,
    }
    if (error !== undefined) {
      // Whatever was thrown may quote the page (a frame's URL, a node's text).
      outcome.error = scrubError(toError(error), this.#scrub)
      outcome.failure = failureTag(outcome.error, { phase: this.#phase, callerAborted: this.#callerSignal?.aborted === true })
    }
    if (this.#snapshot) outcome.observation = this.#snapshot.observation
    if (this.#consent) outcome.consent = this.#consent
    if (this.#replay) {
      outcome.cache = this.#replay.status(outcome)
      await this.#replay.save(outcome, this.#settings.checklist === false)
    }
    return outcome
  }
}

