import type { Page } from 'puppeteer-core'
import { UsageError } from '../errors.ts'

// The one piece of state kept on the caller's page: whether a goal is running on it.
const RUNNING = Symbol.for('puppeteer-agent.goal-running')

type Lockable = Page & { [RUNNING]?: true }

/** Takes the page's goal lock, or throws a UsageError when a goal already holds it. Returns the release. */
export function lockPage(page: Page): () => void {
  const lockable = page as Lockable
  if (lockable[RUNNING]) {
    throw new UsageError('A goal is already running on this page: wait for it to finish before starting another.')
  }
  Object.defineProperty(lockable, RUNNING, { value: true, configurable: true, enumerable: false, writable: true })
  return () => {
    delete lockable[RUNNING]
  }
}
