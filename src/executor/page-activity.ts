import type { HTTPRequest, Page, Protocol } from 'puppeteer-core'
import { frameId, frameSession } from '../browser/isolated-world.ts'

// Requests that may stay open for the life of the page: waiting for them would never settle.
const LONG_LIVED = new Set(['eventsource', 'websocket', 'ping', 'prefetch'])
/**
 * How long a navigation the page asked for (a form submitted, a link followed) counts as under way
 * before its request is seen: on a busy machine the request can come after the DOM's quiet is over.
 * One never sent (a download, a navigation the page's `beforeunload` refused) stops counting then.
 */
const REQUESTED_NAVIGATION_MS = 1_000

/** Network and navigation activity of a page, watched from just before an input until it has settled. */
export interface PageActivity {
  /** A main-frame navigation was asked for or requested, and its new document has not fired DOMContentLoaded yet. */
  readonly navigating: boolean
  /** Requests started and not finished. */
  readonly inflight: number
  /** Resolves true once `done()` holds, false when `timeoutMs` passes first. */
  until(done: () => boolean, timeoutMs: number): Promise<boolean>
  dispose(): void
}

export function watchActivity(page: Page): PageActivity {
  const inflight = new Set<HTTPRequest>()
  let navigation: HTTPRequest | undefined
  let committed = false
  const waiters = new Set<() => void>()
  const notify = () => {
    for (const waiter of [...waiters]) waiter()
  }

  // A navigation the main frame asked for, until its request is seen or it stops counting.
  let requestedUntil = 0
  let requestedTimer: NodeJS.Timeout | undefined
  const session = frameSession(page.mainFrame())
  const mainFrameId = frameId(page.mainFrame())
  const onRequested = (event: Protocol.Page.FrameRequestedNavigationEvent) => {
    if (event.frameId !== mainFrameId || event.disposition !== 'currentTab') return
    requestedUntil = performance.now() + REQUESTED_NAVIGATION_MS
    clearTimeout(requestedTimer)
    // The waiters learn when it stops counting, as they learn of every other change.
    requestedTimer = setTimeout(notify, REQUESTED_NAVIGATION_MS)
    notify()
  }

  const onRequest = (request: HTTPRequest) => {
    if (LONG_LIVED.has(request.resourceType())) return
    inflight.add(request)
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      navigation = request
      committed = false
      requestedUntil = 0
    }
    notify()
  }
  const onFinished = (request: HTTPRequest) => {
    if (!inflight.delete(request)) return
    notify()
  }
  const onFailed = (request: HTTPRequest) => {
    inflight.delete(request)
    // A navigation that failed before committing (aborted, a download, a 204) leaves the old document.
    if (request === navigation && !committed) navigation = undefined
    notify()
  }
  const onFrameNavigated = (frame: unknown) => {
    if (frame === page.mainFrame() && navigation) committed = true
  }
  const onDomContentLoaded = () => {
    navigation = undefined
    requestedUntil = 0
    notify()
  }

  page.on('request', onRequest)
  page.on('requestfinished', onFinished)
  page.on('requestfailed', onFailed)
  page.on('framenavigated', onFrameNavigated)
  page.on('domcontentloaded', onDomContentLoaded)
  session.on('Page.frameRequestedNavigation', onRequested)

  return {
    get navigating() {
      return navigation !== undefined || performance.now() < requestedUntil
    },
    get inflight() {
      return inflight.size
    },
    until(done, timeoutMs) {
      if (done()) return Promise.resolve(true)
      return new Promise<boolean>((resolve) => {
        const finish = (value: boolean) => {
          clearTimeout(timer)
          waiters.delete(check)
          resolve(value)
        }
        const check = () => {
          if (done()) finish(true)
        }
        const timer = setTimeout(() => finish(false), timeoutMs)
        waiters.add(check)
      })
    },
    dispose() {
      page.off('request', onRequest)
      page.off('requestfinished', onFinished)
      page.off('requestfailed', onFailed)
      page.off('framenavigated', onFrameNavigated)
      page.off('domcontentloaded', onDomContentLoaded)
      session.off('Page.frameRequestedNavigation', onRequested)
      clearTimeout(requestedTimer)
    },
  }
}
