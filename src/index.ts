import type { Page } from 'puppeteer-core'
import type { Agent, AgentOptions, AgentPage, Extractor, Rules } from '../types/index.d.ts'
import { lockPage } from './call/page-lock.ts'
import { BlockedError, PageGoneError, UsageError } from './errors.ts'
import { parseOptions, type Settings } from './options.ts'
import { extract } from './extract/extract.ts'
import { applyRules } from './extract/apply-rules.ts'
import { runGoal } from './goal/run-goal.ts'

// Marks the methods agent() installs, so a second agent(page) does not mistake them for a custom engine.
const INSTALLED = Symbol.for('puppeteer-agent.method')

function assertPage(page: unknown): asserts page is Page {
  if (typeof page !== 'object' || page === null || typeof (page as Page).evaluate !== 'function') {
    throw new UsageError('agent(page) needs a Puppeteer Page as its first argument.')
  }
}

function install<T extends (...args: any[]) => unknown>(fn: T): T {
  Object.defineProperty(fn, INSTALLED, { value: true })
  return fn
}

/** The page's own `extract` method, when it has one that agent() did not install (e.g. inside a Microlink function). */
function existingEngine(page: Page): Extractor | undefined {
  const method = (page as unknown as Partial<AgentPage>).extract as ((rules: Rules) => unknown) | undefined
  if (typeof method !== 'function' || (method as any)[INSTALLED]) return undefined
  return (_page, rules) => method.call(page, rules)
}

/** Extraction defaults: a page's own `extract` method is the engine unless the defaults name one. */
function extractDefaults(page: Page, base: Partial<Settings>): Partial<Settings> {
  const engine = existingEngine(page)
  return engine && !base.extractor ? { ...base, extractor: engine } : base
}

/**
 * agent.applyRules is an agent call like the others: refused while another one runs on the page. The
 * data is whatever the rules read; `T` is the caller's word for its shape, as the public type says.
 */
async function applyRulesLocked<T>(page: Page, rules: Rules): Promise<T> {
  const lock = lockPage(page, 'applyRules')
  try {
    return (await applyRules(page, rules)) as T
  } finally {
    lock.release()
  }
}

function agentFn<P extends Page>(page: P, defaults?: AgentOptions): P & AgentPage {
  assertPage(page)
  const base: Partial<Settings> = parseOptions(defaults, 'agent(page, defaults)')
  const pageDefaults = extractDefaults(page, base)
  const target = page as P & AgentPage
  target.goal = install((goal: unknown, options?: unknown) => runGoal(page, goal, base, options)) as AgentPage['goal']
  target.extract = install((...args: unknown[]) => extract(page, args, pageDefaults)) as AgentPage['extract']
  return target
}

const agent = Object.assign(agentFn, {
  goal: (page: Page, goal: unknown, options?: unknown) => {
    assertPage(page)
    return runGoal(page, goal, {}, options)
  },
  extract: (page: Page, ...args: unknown[]) => {
    assertPage(page)
    return extract(page, args, extractDefaults(page, {}))
  },
  applyRules: <T>(page: Page, rules: Rules) => {
    assertPage(page)
    return applyRulesLocked<T>(page, rules)
  },
  BlockedError,
  PageGoneError,
  UsageError,
}) satisfies Agent

export default agent
export { agent, BlockedError, PageGoneError, UsageError }
// require('puppeteer-agent') returns the agent function itself, not a namespace object.
export { agent as 'module.exports' }
