import type { BrowserContext, Page } from 'puppeteer-core'
import type { Snapshot } from '../../src/collector/observation.ts'
import { observe, type ObserveOptions } from '../../src/collector/observe.ts'

// Time bounds, and whole observations: a fixture page that hangs (a busy loop, a load that never ends) or a goal that never
// returns must cost the bench a bounded wait and a recorded failure, never the run.

export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} took more than ${ms} ms`)
    this.name = 'TimeoutError'
  }
}

/** `work`, or a TimeoutError after `ms`; the work itself is left to finish or fail unobserved. */
export async function within<T>(ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms)
  })
  work.catch(() => {})
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/** Closes a context without waiting on a renderer stuck in a busy loop for more than two seconds. */
export async function closeContext(context: BrowserContext): Promise<void> {
  await within(2_000, 'closing the browser context', context.close()).catch(() => {})
}

export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** observe() until the snapshot's handles are in: the probes act on them, and its time is the whole observation's. */
export async function observeWhole(page: Page, options?: ObserveOptions): Promise<Snapshot> {
  const snapshot = await observe(page, options)
  await snapshot.ready
  return snapshot
}
