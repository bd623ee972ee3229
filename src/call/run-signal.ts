import type { Page } from 'puppeteer-core'
import { abortedWithin, race } from '../base/deadline.ts'
import { isPageGone } from '../base/gone.ts'
import { PageGoneError } from '../errors.ts'

// A page can keep any call on it pending for good: a busy loop or an endless alert() holds every
// evaluate until Puppeteer's protocol timeout, and a closed page or a lost browser is only noticed when
// a call fails. So every await of an agent call races one signal that ends the run at once: the
// caller's signal, the page closing or crashing, or the browser disconnecting.

// A call can fail with "Target closed" a moment before Puppeteer emits the page's 'close' (the session
// detaches first); this is how long such a failure waits for the event that says what happened.
const GONE_EVENT_MS = 100

export interface RunSignal {
  /** Aborts with the caller's own reason, or an Error saying the page closed, crashed or the browser disconnected. */
  readonly signal: AbortSignal
  /**
   * Settles as `promise` does, or rejects with the signal's reason as soon as it aborts. A promise left
   * behind keeps running: its rejection is absorbed, and a value it resolves to later goes to `discard`.
   */
  race<T>(promise: Promise<T>, discard?: (late: T) => unknown): Promise<T>
  /**
   * What a failure of the run means: the signal's reason once the run has ended, the same when the
   * failure was the page or the connection going away, otherwise the error as thrown.
   */
  explain(thrown: unknown): Promise<unknown>
  /** Removes every listener the signal added. */
  dispose(): void
}

/** Watches a page for one agent call; dispose it when the call ends. */
export function watchRun(page: Page, caller: AbortSignal | undefined): RunSignal {
  const controller = new AbortController()
  const { signal } = controller
  const browser = page.browser()
  const end = (reason: unknown) => {
    if (!signal.aborted) controller.abort(reason)
  }
  const onCaller = () => end(caller!.reason)
  // The page's 'close' also follows a disconnection, so the browser's state says which one it was.
  const onGone = () =>
    end(browser.connected ? new PageGoneError('The page was closed during the run.') : new PageGoneError('The browser disconnected during the run.'))
  const onCrash = (error: Error) => end(new PageGoneError('The page crashed during the run.', { cause: error }))

  if (caller?.aborted) end(caller.reason)
  else if (!browser.connected || page.isClosed()) onGone()
  caller?.addEventListener('abort', onCaller, { once: true })
  // `on`, not `once`: Puppeteer's off() cannot remove a once() listener, and these run harmlessly twice.
  page.on('close', onGone)
  page.on('error', onCrash)
  browser.on('disconnected', onGone)

  return {
    signal,
    race: (promise, discard) => race(promise, signal, discard),
    async explain(thrown) {
      if (!signal.aborted && isPageGone(thrown)) await abortedWithin(signal, GONE_EVENT_MS)
      if (!signal.aborted && (!browser.connected || page.isClosed())) onGone()
      return signal.aborted ? signal.reason : thrown
    },
    dispose() {
      caller?.removeEventListener('abort', onCaller)
      page.off('close', onGone)
      page.off('error', onCrash)
      browser.off('disconnected', onGone)
    },
  }
}
