import type { Frame, Page } from 'puppeteer-core'
import type { ConsentChoice, ConsentReport } from '../../types/index.d.ts'
import { isolatedWorld } from '../browser/isolated-world.ts'
import type { PageEvents } from '../executor/page-events.ts'
import { autoconsentFiles } from './autoconsent-files.ts'
import { holdDocument, type DocumentHold, type HeldNavigation } from './hold-document.ts'
import { regainPage } from './regain-page.ts'

// Clears a consent banner before the goal's first observation with @duckduckgo/autoconsent, which knows
// the consent platforms (OneTrust, Cookiebot, Didomi, Usercentrics, Quantcast and hundreds more).
//
// Where it runs: its content script runs in the main frame's isolated world, as the library is built to
// (`isMainWorld: false`, like a browser extension's content script). It shares the DOM with the page, so
// it sees and clicks the banner, but none of the page's JavaScript: a page cannot read or replace the
// globals it talks through, nor the functions it calls. The few rules that must call a platform's own
// API (`eval` steps, such as Didomi's opt-out when the notice has no refuse button) ask for it by
// message; those snippets are the library's, not page input, and run in the main world, where that API lives.
//
// Messages: the library calls `autoconsentSendMessage` of its world; our handler there answers `init`
// with the configuration and rules and queues the rest, which Node drains in turns, answering
// each `eval` and reading the library's state from its `report` messages.

/**
 * The whole clearing is held to this. A banner it can clear took 0.5 to 0.9 s on an idle machine and up
 * to 3 s with several browsers busy (the library's own pauses: the page's idle time, 500 ms before it
 * looks again, OneTrust's 500 ms before its refuse button); one that takes longer is left to the model
 * rather than delaying the goal.
 */
export const CONSENT_DEADLINE_MS = 5_000
/**
 * The part of the bound kept for a page that does not answer when the clearing is abandoned: its script
 * is stopped and it is given this long to answer (a page that is not busy answers in milliseconds).
 */
const REGAIN_MS = 700
/**
 * After the banner reports itself answered, the page is held this much longer: the click that answered
 * it may submit a form or follow a link whose request leaves the renderer a moment after, and a busy
 * machine makes that moment longer. Counted within the bound.
 */
const AFTERMATH_MS = 500
/** The clearing itself, raced in Node: a page's handler that never yields cannot hold it. */
const CLEARING_MS = CONSENT_DEADLINE_MS - REGAIN_MS
/**
 * A platform whose banner is closed (answered on an earlier visit) stays in the page, and the library
 * would watch 5 s for its banner to open; at goal start the page has loaded and an open banner is
 * found at once, so none in this long after the platform was recognised means there is none.
 */
const CLOSED_BANNER_MS = 2_000
/** One wait for messages in the page; short so the deadline is checked often. */
const DRAIN_WAIT_MS = 250
/**
 * The page has loaded when a goal starts, so detection need not wait for a platform's script to arrive:
 * one retry (500 ms apart in the library) catches a banner drawn just after load.
 */
const DETECT_RETRIES = 1

/** The lifecycle states after which the library does nothing more in this document. */
const FINAL = new Set(['nothingDetected', 'optOutSucceeded', 'optOutFailed', 'optInSucceeded', 'optInFailed', 'done'])

interface Message {
  type: string
  id?: string
  code?: string
  cmp?: string
  result?: boolean
  state?: { lifecycle?: string; detectedCmps?: string[] }
}

function libraryConfig(choice: ConsentChoice) {
  return {
    enabled: true,
    autoAction: choice === 'reject' ? 'optOut' : 'optIn',
    disabledCmps: [],
    // The page is already shown: hiding known banner selectors ahead of detection would only hide what
    // the library then fails to clear, and leave it hidden for the model, so nothing is hidden early.
    enablePrehide: false,
    prehideTimeout: 0,
    // A platform known only by its CSS hides its banner rather than answering it; the banner is still gone.
    enableCosmeticRules: true,
    enableGeneratedRules: true,
    detectRetries: DETECT_RETRIES,
    isMainWorld: false,
    // Heuristic detection guesses at unknown banners by their text; only known platforms are answered.
    enableHeuristicDetection: false,
    heuristicMode: 'off',
    enablePopupMutationObserver: false,
    visualTest: false,
    performanceLoggingEnabled: false,
    heuristicPopupSearchTimeout: 0,
    // Quiet: the page's console is the page's, and what happened is in the report.
    logs: {
      lifecycle: false,
      rulesteps: false,
      detectionsteps: false,
      evals: false,
      errors: false,
      messages: false,
      waits: false,
    },
  }
}

/** The globals of the isolated world that the library's script and our handler share. */
interface ConsentWorld {
  autoconsentSendMessage?: (message: { type: string }) => Promise<void>
  autoconsentReceiveMessage?: (message: unknown) => Promise<void>
  /** The library's messages not yet drained by Node, and the wait of a drain in progress. */
  __puppeteerAgentConsent?: { queue: unknown[]; wake?: () => void }
}

/** The handler the library calls, installed in the isolated world before its script runs. */
function installHandler(config: unknown, rules: unknown): void {
  const world = globalThis as unknown as ConsentWorld
  const box: NonNullable<ConsentWorld['__puppeteerAgentConsent']> = { queue: [] }
  world.__puppeteerAgentConsent = box
  // A second goal on the same document starts a fresh instance: the script installs only when this is unset.
  delete world.autoconsentReceiveMessage
  world.autoconsentSendMessage = async (message) => {
    if (message.type === 'init') {
      // `init` is sent from the library's constructor, before its script sets the receiver: answer a turn later.
      await undefined
      return world.autoconsentReceiveMessage?.({ type: 'initResp', config, rules })
    }
    box.queue.push(message)
    box.wake?.()
  }
}

/** The messages queued since the last call, waiting up to `ms` for one. */
function drain(ms: number): Promise<unknown[]> {
  const box = (globalThis as unknown as ConsentWorld).__puppeteerAgentConsent!
  return new Promise((resolve) => {
    const take = () => {
      clearTimeout(timer)
      box.wake = undefined
      resolve(box.queue.splice(0))
    }
    const timer = setTimeout(take, ms)
    if (box.queue.length > 0) take()
    else box.wake = take
  })
}

/** Hands the library an answer (an `evalResp`) through its receiver. */
function answer(message: unknown): Promise<void> | undefined {
  return (globalThis as unknown as ConsentWorld).autoconsentReceiveMessage?.(message)
}

/**
 * One of the library's snippets (a function's source, called) run in the main world, where the platform's
 * API lives. The library expects a boolean; a snippet that throws, or hangs past the deadline because
 * the page's API never answers, counts as false.
 */
async function mainWorldEval(frame: Frame, code: string, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms), false)))
  const result = await Promise.race([frame.evaluate(code).then(Boolean, () => false), late])
  clearTimeout(timer)
  return result
}

/** What the clearing has seen, read when a navigation or the bound ends it first. */
interface Progress {
  lifecycle: string
  popupOpen: boolean
  /** Set when the step has ended: the abandoned clearing sends the page nothing more. */
  ended: boolean
}

/** Runs the library until it is done in this document, its banner is found closed, or the clearing's time is up. */
async function clearBanner(page: Page, choice: ConsentChoice, report: ConsentReport, progress: Progress, started: number): Promise<void> {
  const { script, rules } = autoconsentFiles()
  const frame = page.mainFrame()
  const world = isolatedWorld(frame)
  await world.evaluate(installHandler, libraryConfig(choice), rules)
  await world.evaluate(script)
  let recognised: number | undefined
  while (!FINAL.has(progress.lifecycle) && !progress.ended) {
    const now = performance.now()
    if (!progress.popupOpen && recognised !== undefined && now - recognised >= CLOSED_BANNER_MS) return
    const left = CLEARING_MS - (now - started)
    if (left <= 0) return
    const messages = (await world.evaluate(drain, Math.min(DRAIN_WAIT_MS, left))) as Message[]
    for (const message of messages) {
      if (progress.ended) return
      if (message.type === 'eval') {
        const result = await mainWorldEval(frame, message.code!, CLEARING_MS - (performance.now() - started))
        await world.evaluate(answer, { type: 'evalResp', id: message.id, result })
      } else if (message.type === 'cmpDetected' || message.type === 'popupFound') {
        report.cmp = message.cmp ?? report.cmp
        recognised ??= performance.now()
        progress.popupOpen ||= message.type === 'popupFound'
      } else if (message.type === 'report') {
        progress.lifecycle = message.state?.lifecycle ?? progress.lifecycle
      }
    }
  }
}

/** The outcome of a clearing that ended on its own, from the library's last lifecycle state. */
function finished(progress: Progress): ConsentReport['outcome'] {
  const { lifecycle } = progress
  if (lifecycle === 'optOutSucceeded' || lifecycle === 'optInSucceeded' || lifecycle === 'done') return 'cleared'
  if (lifecycle === 'optOutFailed' || lifecycle === 'optInFailed') return 'failed'
  if (lifecycle === 'nothingDetected') return 'none'
  // Out of time, or a platform whose banner never opened.
  return progress.popupOpen ? 'timed_out' : 'none'
}

/**
 * What the click that answered the banner led to: a navigation it started shortly after, or none
 * ('done'). The page's own tasks run first (a round trip), then a short wait for the request.
 */
async function aftermath(page: Page, hold: DocumentHold, leftMs: number): Promise<'done' | HeldNavigation> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const grace = new Promise<'done'>((resolve) => (timer = setTimeout(resolve, Math.max(0, Math.min(AFTERMATH_MS, leftMs)), 'done')))
  try {
    const roundTrip = isolatedWorld(page.mainFrame()).evaluate(() => 0).then(() => grace, () => grace)
    return await Promise.race([hold.navigated, roundTrip])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Clears the main frame's consent banner, refusing or accepting as `choice` says, in at most
 * CONSENT_DEADLINE_MS. Never throws: what happened is in the report. Meanwhile the page is held on its
 * document (a navigation the step causes is stopped and ends it) and, with `events`, every dialog is
 * dismissed; `consentFailure` says whether the goal can run after it.
 */
export async function dismissConsent(page: Page, choice: ConsentChoice, events?: Pick<PageEvents, 'dismissAll' | 'takeDialogs'>): Promise<ConsentReport> {
  const started = performance.now()
  const report: ConsentReport = { action: choice, cmp: null, outcome: 'none', ms: 0 }
  const progress: Progress = { lifecycle: 'started', popupOpen: false, ended: false }
  let hold: DocumentHold | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  events?.dismissAll(true)
  try {
    hold = await holdDocument(page)
    const bound = new Promise<'bound'>((resolve) => (timer = setTimeout(resolve, CLEARING_MS - (performance.now() - started), 'bound')))
    const clearing = clearBanner(page, choice, report, progress, started).then(() => 'done' as const)
    let ended = await Promise.race([clearing, hold.navigated, bound])
    if (ended === 'done') ended = await aftermath(page, hold, CLEARING_MS - (performance.now() - started))
    progress.ended = true
    if (ended === 'done') report.outcome = finished(progress)
    else if (ended === 'bound') {
      report.outcome = progress.popupOpen ? 'timed_out' : 'none'
      const regained = await regainPage(page, REGAIN_MS)
      if (regained.stopped) report.scriptStopped = true
      if (!regained.answering) report.outcome = 'unresponsive'
    } else {
      report.outcome = ended.left ? 'left_page' : 'navigated'
      report.url = ended.url
    }
  } catch (error) {
    // A document that changed anyway destroys the library's world: that is the cause worth reporting.
    const navigation = hold?.seen()
    if (navigation?.left) {
      report.outcome = 'left_page'
      report.url = navigation.url
    } else {
      report.outcome = 'error'
      report.error = error instanceof Error ? error.message : String(error)
    }
  } finally {
    progress.ended = true
    clearTimeout(timer)
    await hold?.release()
    events?.dismissAll(false)
  }
  // Raised during the step, not by an action of the run's: counted here, not in the first step's trace.
  const dialogs = events?.takeDialogs().length ?? 0
  if (dialogs > 0) report.dialogs = dialogs
  report.ms = Math.round(performance.now() - started)
  return report
}

/**
 * Why the goal must not run after this consent step, or undefined when it can: the page is no longer the
 * document the goal was given, or it does not answer.
 */
export function consentFailure(report: ConsentReport): string | undefined {
  if (report.outcome === 'left_page') {
    return `The consent step took the page to another document (${report.url}); the goal was not run on a page it was not given.`
  }
  if (report.outcome === 'unresponsive') {
    return `The page did not answer within ${CONSENT_DEADLINE_MS} ms of the consent step (a script of the page kept it busy${report.dialogs ? `, raising ${report.dialogs} dialogs` : ''}); the goal was not run.`
  }
  return undefined
}
