import { AsyncLocalStorage } from 'node:async_hooks'
import type { Page } from 'puppeteer-core'
import { UsageError } from '../errors.ts'

// The one piece of state kept on the caller's page: which agent call holds it. One call at a time
// drives or reads a page; a second one while the first runs is a usage error, named after both.

/** The agent calls that take the page, as messages name them. */
export type AgentCall = 'goal' | 'extraction' | 'applyRules'

/** How messages name each call: as the subject, and after "starting". */
const NAMES: Record<AgentCall, { subject: string; object: string }> = {
  goal: { subject: 'A goal', object: 'a goal' },
  extraction: { subject: 'An extraction', object: 'an extraction' },
  applyRules: { subject: 'agent.applyRules', object: 'agent.applyRules' },
}

const HELD = Symbol.for('puppeteer-agent.page-lock')

interface Held {
  call: AgentCall
}

type Lockable = Page & { [HELD]?: Held }

/** The lock whose code is running: an `extractor` calls agent.applyRules from inside its extraction. */
const inside = new AsyncLocalStorage<Held>()

export interface PageLock {
  /** Runs `fn` as part of the call holding the lock (see `lockPage` on nested calls). */
  within<T>(fn: () => T): T
  release(): void
}

/**
 * Takes the page for one agent call, or throws a UsageError naming the call that holds it. The one
 * nested call allowed is agent.applyRules from code an extraction runs `within` its lock (an
 * `extractor` built on the built-in engine): it reads the page the extraction is reading, nothing runs
 * alongside it.
 */
export function lockPage(page: Page, call: AgentCall): PageLock {
  const lockable = page as Lockable
  const held = lockable[HELD]
  if (held) {
    if (call === 'applyRules' && held.call === 'extraction' && inside.getStore() === held) {
      return { within: (fn) => fn(), release: () => {} }
    }
    const next = call === held.call ? 'another' : NAMES[call].object
    throw new UsageError(`${NAMES[held.call].subject} is already running on this page: wait for it to finish before starting ${next}.`)
  }
  const mine: Held = { call }
  Object.defineProperty(lockable, HELD, { value: mine, configurable: true, enumerable: false, writable: true })
  return {
    within: (fn) => inside.run(mine, fn),
    release: () => {
      if (lockable[HELD] === mine) delete lockable[HELD]
    },
  }
}
