import type { Page } from 'puppeteer-core'
import type { BlockedReason, DialogRecord, PendingAction, TraceEntry } from '../../types/index.d.ts'
import type { Observation, ObservedElement, Snapshot } from '../collector/observation.ts'
import type { Decision, RecentAction } from '../decision/decision.ts'
import { BlockedError, toError } from '../errors.ts'
import { act, type CheckFreshness } from '../executor/act.ts'
import { watchActivity } from '../executor/page-activity.ts'
import { watchPageEvents, type PageEvents } from '../executor/page-events.ts'
import { settle } from '../executor/settle.ts'
import type { Settings } from '../options.ts'
import type { Ledger } from '../profiling/ledger.ts'
import { logStep } from '../profiling/log.ts'
import { observeSettled, type Observe } from './observe-settled.ts'
import { pageBlock } from './page-blockers.ts'
import { identify, NO_CHANGE_LIMIT, NoChangeGuard, STALE_LIMIT, StaleGuard } from './progress-guards.ts'
import { decisionEntry, describeDecision } from './trace-entry.ts'

/** An action is risky (payment, purchase, deletion, sending) when the model rates it at least this likely to be. */
export const RISK_THRESHOLD = 0.5

/** The parts the loop ties together; run-goal passes the real ones. */
export interface GoalParts {
  observe: Observe
  checkFreshness: CheckFreshness
  decideStep(input: {
    goal: string
    observation: Observation
    recent: RecentAction[]
    settings: Settings
    ledger: Ledger
    exclude?: ReadonlySet<string>
  }): Promise<Decision>
  writeText(input: {
    goal: string
    observation: Observation
    target: ObservedElement
    recent: RecentAction[]
    settings: Settings
    ledger: Ledger
  }): Promise<{ text: string; textMs: number }>
}

export interface LoopOutcome {
  status: 'success' | 'error'
  steps: number
  decisions: number
  trace: TraceEntry[]
  error?: Error
  /** The last observation made, for the evaluator; absent when the page was never observed. */
  observation?: Observation
}

const INPUT_OPERATIONS = new Set(['CLICK', 'TYPE_TEXT', 'SUBMIT', 'SELECT'])

/**
 * Observe → decide → guard → act → settle, until the model chooses DONE or the run has to stop.
 * Never throws: a stop is a BlockedError in `error`, anything else the error as thrown.
 */
export async function runGoalLoop(page: Page, goal: string, settings: Settings, parts: GoalParts, ledger: Ledger): Promise<LoopOutcome> {
  const trace: TraceEntry[] = []
  const recent: RecentAction[] = []
  const noChange = new NoChangeGuard()
  const staleStreak = new StaleGuard()
  let watching: PageEvents | undefined
  let steps = 0
  let decisions = 0
  let snapshot: Snapshot | undefined
  let observeMs = 0
  // The entry of the step in progress, logged once its step is over (the next decision or the end).
  let open: TraceEntry | undefined
  let stepStarted = performance.now()
  const closeStep = () => {
    if (open) logStep(open, performance.now() - stepStarted)
    open = undefined
    stepStarted = performance.now()
  }

  const stop = (reason: BlockedReason, message: string): never => {
    throw new BlockedError(reason, message, trace)
  }
  const observe = async (popups: string[] = []) => {
    const started = performance.now()
    snapshot = await observeSettled(parts.observe, page, { previous: snapshot, popups })
    observeMs = Math.round(performance.now() - started)
    return snapshot
  }
  const finish = (status: LoopOutcome['status'], error?: unknown): LoopOutcome => {
    closeStep()
    const outcome: LoopOutcome = { status, steps, decisions, trace }
    if (error !== undefined) outcome.error = toError(error)
    if (snapshot) outcome.observation = snapshot.observation
    return outcome
  }

  try {
    const events = (watching = await watchPageEvents(page))
    let current = await observe()
    for (;;) {
      closeStep()
      const observation = current.observation
      const block = pageBlock(observation)
      if (block) stop(block.reason, block.message)
      if (decisions >= settings.maxDecisions) {
        stop('step_budget', `Used all ${settings.maxDecisions} decision requests (maxDecisions) before the goal was met.`)
      }

      settings.signal?.throwIfAborted()
      const decision = await parts.decideStep({
        goal,
        observation,
        recent: [...recent],
        settings,
        ledger,
        exclude: noChange.exclusions(observation),
      })
      decisions += 1
      const element = decision.target ? observation.elements.find((candidate) => candidate.id === decision.target) : undefined
      const optionLabel = decision.option ? element?.options?.find((option) => option.id === decision.option)?.label : undefined
      const entry = decisionEntry({ decision, request: decisions, step: steps, observation, element, optionLabel, observeMs })
      trace.push(entry)
      open = entry
      const named = describeDecision(decision, element, optionLabel)
      const identity = identify(decision.target, element)
      const remember = (outcome: RecentAction['outcome'], detail?: string, text?: string) => {
        const action: RecentAction = { operation: decision.operation, outcome }
        if (decision.target) action.target = decision.target
        if (element) action.targetName = element.name
        if (optionLabel !== undefined) action.option = optionLabel
        if (text !== undefined) action.text = text
        if (detail) action.detail = detail
        recent.push(action)
      }

      checkConfidence(decision, settings.minConfidence, named, stop)
      if (decision.operation === 'DONE') return finish('success')
      if (decision.operation === 'BLOCKED') stop('model_blocked', 'The decision model chose BLOCKED: it judged that the goal cannot be reached from this page.')
      if (steps >= settings.maxSteps) {
        stop('step_budget', `Used all ${settings.maxSteps} actions (maxSteps) before the goal was met; the model then chose ${named}.`)
      }
      if (INPUT_OPERATIONS.has(decision.operation) && !element) {
        throw new Error(`The decision chose ${named}, which is not an element of the current observation.`)
      }

      const discardStale = async (reason: string) => {
        entry.stale = true
        entry.staleReason = reason
        remember('stale_discarded', reason)
        if (staleStreak.stale(identity)) {
          stop('stale_target', `${STALE_LIMIT} decisions in a row chose ${named} and it failed its freshness check each time (last: ${reason}).`)
        }
        current = await observe(events.takePopups())
      }

      let text: string | undefined
      if (decision.operation === 'TYPE_TEXT') {
        // Check before paying for the text: a stale target would waste the request.
        const early = await parts.checkFreshness(current, decision.target!)
        if (!early.fresh) {
          await discardStale(early.reason)
          continue
        }
        settings.signal?.throwIfAborted()
        const written = await parts.writeText({ goal, observation, target: element!, recent: [...recent], settings, ledger })
        text = written.text
        entry.text = text
        entry.textMs = written.textMs
      }

      if (decision.risk !== undefined && decision.risk >= RISK_THRESHOLD) {
        const approved = await review(settings, pendingAction(decision, element, optionLabel, text, observation), named, stop)
        entry.approved = approved
        if (!approved) {
          remember('declined', 'approve() declined this action; it is not offered again until the page changes', text)
          noChange.ignore(identity, observation)
          staleStreak.fresh()
          current = await observe(events.takePopups())
          continue
        }
      }

      settings.signal?.throwIfAborted()
      const started = performance.now()
      const activity = watchActivity(page)
      let outcome: Awaited<ReturnType<typeof act>>
      try {
        outcome = await act({
          page,
          snapshot: current,
          decision,
          element,
          text,
          waitMs: settings.waitMs,
          signal: settings.signal,
          checkFreshness: parts.checkFreshness,
        })
        if (outcome.acted && decision.operation !== 'WAIT') await settle(page, activity, outcome.frames)
      } finally {
        activity.dispose()
      }
      const waited = decision.operation === 'WAIT' ? settings.waitMs : 0
      entry.actMs = Math.max(0, Math.round(performance.now() - started - waited))
      const dialogs = events.takeDialogs()
      const popups = events.takePopups()
      if (dialogs.length > 0) entry.dialogs = dialogs
      if (popups.length > 0) entry.popups = popups

      if (!outcome.acted) {
        await discardStale(outcome.stale)
        continue
      }
      staleStreak.fresh()
      steps += 1
      entry.step = steps
      const before = observation
      current = await observe(popups)
      const changed = current.observation.signature !== before.signature || current.observation.url !== before.url
      entry.pageChanged = changed
      remember(dialogs.length > 0 ? 'dialog' : changed ? 'page_changed' : 'no_change', actionDetail(before, current.observation, dialogs, popups), text)
      if (noChange.record(identity, before, changed)) {
        stop('no_change', `${NO_CHANGE_LIMIT} actions in a row left the page as it was (the last was ${named}).`)
      }
    }
  } catch (error) {
    return finish('error', error)
  } finally {
    await watching?.dispose()
    await snapshot?.dispose().catch(() => {})
  }
}

function checkConfidence(decision: Decision, min: number | undefined, named: string, stop: (reason: BlockedReason, message: string) => never): void {
  if (min === undefined) return
  if (decision.confidence !== undefined && decision.confidence < min) {
    stop('low_confidence', `The model chose ${decision.operation} with probability ${decision.confidence}, below minConfidence ${min}.`)
  }
  if (decision.targetConfidence !== undefined && decision.targetConfidence < min) {
    stop('low_confidence', `The model chose the target of ${named} with probability ${decision.targetConfidence}, below minConfidence ${min}.`)
  }
}

function pendingAction(
  decision: Decision,
  element: ObservedElement | undefined,
  option: string | undefined,
  text: string | undefined,
  observation: Observation,
): PendingAction {
  const action: PendingAction = { operation: decision.operation, url: observation.url, risk: decision.risk ?? 1 }
  if (decision.target) action.target = decision.target
  if (element) action.targetName = element.name
  if (option !== undefined) action.option = option
  if (text !== undefined) action.text = text
  return action
}

/** Asks `approve` about a risky action; without it the run stops before the action. */
async function review(
  settings: Settings,
  action: PendingAction,
  named: string,
  stop: (reason: BlockedReason, message: string) => never,
): Promise<boolean> {
  if (!settings.approve) {
    return stop(
      'risk_review',
      `The model rates ${named} as a payment, purchase, deletion or message (risk ${action.risk}); pass an approve callback to allow such actions.`,
    )
  }
  return (await settings.approve(action)) === true
}

/** What the next request is told about an action besides its outcome. */
function actionDetail(before: Observation, after: Observation, dialogs: DialogRecord[], popups: string[]): string | undefined {
  const details: string[] = []
  if (after.url !== before.url) details.push(`now at ${after.url}`)
  for (const dialog of dialogs) {
    details.push(`${dialog.type} "${dialog.message}" was ${dialog.accepted ? 'accepted' : 'dismissed'}`)
  }
  for (const url of popups) details.push(`a new tab opened at ${url}; it is not followed`)
  return details.length > 0 ? details.join('; ') : undefined
}
