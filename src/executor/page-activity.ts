import type { HTTPRequest, Page } from 'puppeteer-core'

// Requests that may stay open for the life of the page: waiting for them would never settle.
const LONG_LIVED = new Set(['eventsource', 'websocket', 'ping', 'prefetch'])

/** Network and navigation activity of a page, watched from just before an input until it has settled. */
export interface PageActivity {
  /** A main-frame navigation was requested and its new document has not fired DOMContentLoaded yet. */
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

  const onRequest = (request: HTTPRequest) => {
    if (LONG_LIVED.has(request.resourceType())) return
    inflight.add(request)
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
      navigation = request
      committed = false
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
    notify()
  }

  page.on('request', onRequest)
  page.on('requestfinished', onFinished)
  page.on('requestfailed', onFailed)
  page.on('framenavigated', onFrameNavigated)
  page.on('domcontentloaded', onDomContentLoaded)

  return {
    get navigating() {
      return navigation !== undefined
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
    },
  }
}
