import type { Browser, CDPSession, Page } from 'puppeteer-core'
import agent from '../../src/index.ts'
import { scriptedModel, textModel } from '../../test/helpers/goal-scripted-model.ts'
import { QUERY, TASKS, type BenchPage } from '../cache/tasks.ts'
import { messageOf } from '../common/message.ts'

// One page of bench:pipeline, the way a crawler's request handler would run it: a new browser context
// and a page in it (or a new page in the default context, with --isolation=page), the template's goal with an instant scripted decision model, then page.extract with
// the template's complete rules (no model), then the context closed. The goals, policies, checklists,
// rules and checks are bench:cache's (scripts/cache/tasks.ts); no cache here, so every step of every
// goal is a decision request.
//
// Before the context closes, the page is checked for what the agent calls left on it: listeners
// added to the page and not removed, CDP sessions of the page still attached, and the page lock
// still held. `ms` runs from opening the context to closing it.

/** Page events the library listens to during a call (src/executor, src/call). */
const PAGE_EVENTS = ['request', 'requestfinished', 'requestfailed', 'framenavigated', 'domcontentloaded', 'dialog', 'close', 'error'] as const
const LOCK = Symbol.for('puppeteer-agent.page-lock')

export interface PageRun {
  path: string
  ok: boolean
  problem?: string
  /** From opening the context (or page) to closing it. */
  ms: number
  /** The parts of `ms`: opening the context and page, goto, the goal, the extraction, closing. */
  openMs: number
  gotoMs: number
  goalMs: number
  extractMs: number
  closeMs: number
  decisions: number
  /** The goal's steps: operation and times (the trace's observeMs, decisionMs, actMs). */
  steps: { operation: string; observeMs?: number; decisionMs: number; actMs?: number }[]
  /** What the agent calls left on the page (before its context closed), by kind; empty when nothing. */
  leftovers: Record<string, number>
}

/** How long to wait for the page's requests to end before its listeners are counted. */
const IDLE_WAIT_MS = 2_000

/**
 * The page's listeners by event, counted once no request is in flight: Puppeteer listens for the end
 * of each request it has seen start (a favicon fetched after a load, say), so a count taken while one
 * is open is one higher for `requestfinished` and `requestfailed` without anything of ours left.
 */
async function pageListeners(page: Page): Promise<Record<string, number>> {
  await page.waitForNetworkIdle({ idleTime: 0, timeout: IDLE_WAIT_MS }).catch(() => {})
  return Object.fromEntries(PAGE_EVENTS.map((event) => [event, page.listenerCount(event)]))
}

/** CDP sessions attached to the page's target, the page's own included. */
export function sessionsOf(page: Page, sessions: ReadonlyMap<string, CDPSession>): number {
  const target = page.target()
  let count = 0
  for (const session of sessions.values()) {
    try {
      if ((session as CDPSession & { target(): unknown }).target() === target && !session.detached) count += 1
    } catch {
      // A session without a target (the browser's own) is no page's.
    }
  }
  return count
}

export interface RunPageOptions {
  browser: Browser
  origin: string
  page: BenchPage
  /** The connection's session map (puppeteer's internal Connection._sessions), for the session check. */
  sessions: ReadonlyMap<string, CDPSession>
  /**
   * `context`: a new browser context per page (its own cookies, storage and cache, and its own
   * renderer process), closed with the page. `page`: a new page in the browser's default context (a
   * background tab once another opens; a goal emulates focus on its page, so it still takes input at once).
   */
  isolation: Isolation
  /** A Page object of each run is handed here, to check later that it is collected. */
  track(page: Page): void
}

export type Isolation = 'context' | 'page'

async function openPage(browser: Browser, isolation: Isolation): Promise<{ page: Page; close(): Promise<void> }> {
  if (isolation === 'page') {
    const page = await browser.newPage()
    return { page, close: () => page.close() }
  }
  const context = await browser.createBrowserContext()
  try {
    return { page: await context.newPage(), close: () => context.close() }
  } catch (error) {
    await context.close().catch(() => {})
    throw error
  }
}

export async function runPage({ browser, origin, page, sessions, isolation, track }: RunPageOptions): Promise<PageRun> {
  const task = TASKS[page.template]
  const started = performance.now()
  const problems: string[] = []
  const leftovers: Record<string, number> = {}
  let openMs = 0
  let gotoMs = 0
  let goalMs = 0
  let extractMs = 0
  let closeMs = 0
  let decisions = 0
  let steps: PageRun['steps'] = []
  let opened: { page: Page; close(): Promise<void> } | undefined
  try {
    opened = await openPage(browser, isolation)
    openMs = performance.now() - started
    const tab = opened.page
    track(tab)
    let mark = performance.now()
    await tab.goto(new URL(page.path, origin).href, { waitUntil: 'load' })
    gotoMs = performance.now() - mark
    const listenersBefore = await pageListeners(tab)
    const sessionsBefore = sessionsOf(tab, sessions)

    const model = scriptedModel((request) => task.policy(request))
    const agentPage = agent(tab)
    mark = performance.now()
    const goal = await agentPage.goal(task.goal, { decisions: model.model, text: textModel(QUERY), checklist: task.checklist, waitMs: 0, maxSteps: 10 })
    goalMs = performance.now() - mark
    mark = performance.now()
    const extracted = await agentPage.extract(task.rules)
    extractMs = performance.now() - mark
    decisions = goal.decisions
    steps = goal.trace.map((entry) => ({ operation: entry.operation, observeMs: entry.observeMs, decisionMs: entry.decisionMs, actMs: entry.actMs }))

    if (goal.status !== 'success') problems.push(`goal: ${goal.failure ?? 'error'} (${messageOf(goal.error)})`)
    else if (!goal.verified) problems.push('goal: a success the page did not verify')
    const wrong = extracted.status === 'success' ? task.check(extracted.data, page.n) : messageOf(extracted.error)
    if (wrong) problems.push(`extraction: ${wrong}`)

    const listenersAfter = await pageListeners(tab)
    for (const event of PAGE_EVENTS) {
      const added = listenersAfter[event]! - listenersBefore[event]!
      if (added !== 0) leftovers[`page '${event}' listeners`] = added
    }
    const sessionsAdded = sessionsOf(tab, sessions) - sessionsBefore
    if (sessionsAdded !== 0) leftovers['CDP sessions of the page'] = sessionsAdded
    if ((tab as unknown as Record<symbol, unknown>)[LOCK] !== undefined) leftovers['page lock held'] = 1
  } catch (error) {
    problems.push(messageOf(error))
  } finally {
    const closing = performance.now()
    await opened?.close().catch((error: unknown) => problems.push(`closing the ${isolation}: ${messageOf(error)}`))
    closeMs = performance.now() - closing
  }
  const run: PageRun = {
    path: page.path,
    ok: problems.length === 0,
    ms: performance.now() - started,
    openMs,
    gotoMs,
    goalMs,
    extractMs,
    closeMs,
    decisions,
    steps,
    leftovers,
  }
  if (problems.length > 0) run.problem = problems.join('; ')
  return run
}
