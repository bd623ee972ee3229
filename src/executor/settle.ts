import type { Frame, Page } from 'puppeteer-core'
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

export const SETTLE_BOUNDS: SettleBounds = {
  // Long enough for a timer or animation frame that renders the result of the input; short enough to keep a step fast.
  quietMs: 20,
  domMaxMs: 1_500,
  navigationMs: 15_000,
  networkMs: 3_000,
  totalMs: 20_000,
}

/**
 * Waits after an input until the page has settled: the DOM of the frames acted in is quiet, a navigation
 * it caused has loaded its new document, and the requests it started have finished. Each wait is
 * bounded; nothing here fails the run.
 */
export async function settle(page: Page, activity: PageActivity, frames: Frame[], bounds: SettleBounds = SETTLE_BOUNDS): Promise<void> {
  const deadline = Date.now() + bounds.totalMs
  const left = (cap: number) => Math.max(0, Math.min(cap, deadline - Date.now()))
  await domQuiet(unique([page.mainFrame(), ...frames]), bounds, left(bounds.domMaxMs))
  let networkUntil = Date.now() + bounds.networkMs
  while (Date.now() < deadline) {
    if (activity.navigating) {
      const loaded = await activity.until(() => !activity.navigating, left(bounds.navigationMs))
      if (!loaded) return
      // The new document loads its own resources.
      networkUntil = Date.now() + bounds.networkMs
    } else if (activity.inflight > 0 && Date.now() < networkUntil) {
      // Requests still open after the bound (polling, a slow endpoint) do not hold the run any longer.
      await activity.until(() => activity.inflight === 0 || activity.navigating, left(networkUntil - Date.now()))
    } else {
      return
    }
    // What the new document or the responses render.
    await domQuiet([page.mainFrame()], bounds, left(bounds.domMaxMs))
  }
}

async function domQuiet(frames: Frame[], bounds: SettleBounds, maxMs: number): Promise<void> {
  if (maxMs <= 0) return
  let timer: ReturnType<typeof setTimeout> | undefined
  // Timers inside a background tab can be throttled, so the bound is also kept from Node.
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs + 50)
  })
  const waits = frames.map((frame) =>
    callInFrame(frame, 'waitForDomQuiet', bounds.quietMs, maxMs).then(
      () => undefined,
      // A navigation destroys the context the wait runs in; the navigation wait takes over.
      () => undefined,
    ),
  )
  await Promise.race([Promise.all(waits), bound])
  clearTimeout(timer)
}

function unique(frames: Frame[]): Frame[] {
  return [...new Set(frames.filter((frame) => !frame.detached))]
}
