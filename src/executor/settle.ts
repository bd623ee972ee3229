import type { ElementHandle, Frame, Page } from 'puppeteer-core'
import { finishedWithin } from '../base/deadline.ts'
import { isDocumentGone } from '../base/gone.ts'
import { log } from '../base/log.ts'
import { callInFrame } from '../browser/page-script.ts'
import type { PageActivity } from './page-activity.ts'

/** How long settling may take. The page is observed as it is once a bound runs out. */
export interface SettleBounds {
  /** DOM quiet: this long without a mutation. */
  quietMs: number
  /** Longest wait for DOM quiet in one pass. */
  domMaxMs: number
  /** Longest wait for a navigation to reach DOMContentLoaded. */
  navigationMs: number
  /** Longest wait for open requests in one pass. */
  networkMs: number
  /** Longest settle in all. */
  totalMs: number
}

// Timers inside a background tab can be throttled, so the DOM-quiet bound is also kept from Node, this
// much later than the page's own: long enough for the page's answer to arrive when it is on time.
const DOM_QUIET_SLACK_MS = 50

export const SETTLE_BOUNDS: SettleBounds = {
  // Long enough for a timer or animation frame that renders the result of the input; short enough to keep a step fast.
  quietMs: 20,
  domMaxMs: 1_500,
  navigationMs: 15_000,
  networkMs: 3_000,
  totalMs: 20_000,
}

/** What settling found at its end. */
export interface Settled {
  /**
   * Every frame waited on reported, at the end of its last wait, that its last observation still
   * stands: an observation made after the input and while settling shows the page as it settled.
   */
  observationStands: boolean
}

/**
 * Waits after an input until the page has settled: the DOM of the frames acted in is quiet, a navigation
 * it caused has loaded its new document, and the requests it started have finished. Each wait is
 * bounded; nothing here fails the run. `target`, the control the input went to: its frame's quiet also
 * waits while the page keeps it disabled (a button that turns itself off while the page works).
 */
export async function settle(
  page: Page,
  activity: PageActivity,
  frames: Frame[],
  bounds: SettleBounds = SETTLE_BOUNDS,
  inputAt = performance.now(),
  target?: ElementHandle<Element>,
): Promise<Settled> {
  const deadline = Date.now() + bounds.totalMs
  const left = (cap: number) => Math.max(0, Math.min(cap, deadline - Date.now()))
  const waited = unique([page.mainFrame(), ...frames])
  const domQuiet = (maxMs: number, since?: number) => framesQuiet(waited, bounds, maxMs, since, target)
  // The first quiet is counted from the input (performance.now() when it was sent), not from here.
  let stands = await domQuiet(left(bounds.domMaxMs), inputAt)
  let networkUntil = Date.now() + bounds.networkMs
  while (Date.now() < deadline) {
    if (activity.navigating) {
      const loaded = await activity.until(() => !activity.navigating, left(bounds.navigationMs))
      if (!loaded) return { observationStands: false }
      // The new document loads its own resources.
      networkUntil = Date.now() + bounds.networkMs
    } else if (activity.inflight > 0 && Date.now() < networkUntil) {
      // Requests still open after the bound (polling, a slow endpoint) do not hold the run any longer.
      await activity.until(() => activity.inflight === 0 || activity.navigating, left(networkUntil - Date.now()))
    } else {
      return { observationStands: stands }
    }
    // What the new document or the responses render, in every frame the first quiet was waited for.
    stands = await domQuiet(left(bounds.domMaxMs))
  }
  return { observationStands: false }
}

/** Waits for DOM quiet in each frame, the target's own with it; true when every one says its last observation stands. */
async function framesQuiet(frames: Frame[], bounds: SettleBounds, maxMs: number, since = performance.now(), target?: ElementHandle<Element>): Promise<boolean> {
  if (maxMs <= 0) return false
  const sinceMs = Math.max(0, performance.now() - since)
  const stands = frames.map(() => false)
  const waits = frames.map((frame, i) =>
    callInFrame(frame, 'waitForDomQuiet', bounds.quietMs, maxMs, sinceMs, target?.frame === frame ? target : undefined).then(
      (quiet) => (stands[i] = quiet.observationStands),
      (error: unknown) => quietWaitFailed(frame, error),
    ),
  )
  // A frame whose wait is still out at the bound is taken to have changed.
  await finishedWithin(Promise.all(waits), maxMs + DOM_QUIET_SLACK_MS)
  return stands.length > 0 && stands.every(Boolean)
}

/** A wait for DOM quiet that failed: settling goes on, as it does when the wait runs out. */
function quietWaitFailed(frame: Frame, error: unknown): false {
  // A navigation destroys the context the wait runs in, or a frame left with its document: the
  // navigation wait takes over, and a frame that left has nothing to settle.
  if (!isDocumentGone(error)) {
    log('settle: the wait for DOM quiet in %s failed, settling goes on: %s', frame.url(), error instanceof Error ? error.message : String(error))
  }
  return false
}

function unique(frames: Frame[]): Frame[] {
  return [...new Set(frames.filter((frame) => !frame.detached))]
}
