import type { Browser } from 'puppeteer-core'
import type { GoalOptions, GoalResult, TraceEntry } from '../../types/index.d.ts'
import agent from '../../src/index.ts'
import { within } from './bounded.ts'
import { openFresh } from './inspect.ts'
import type { ReachCase } from './load-cases.ts'
import { oracle, type Oracle } from './oracle.ts'

// A case's task through the whole library: agent.goal on a fresh load with the oracle deciding and
// typing, with the case's secrets if it has any, bounded in time; then the case's own check, the page
// showing its done text: the oracle's DONE is a claim, the page is the proof. bench:reach plays it
// with the checklist off, bench:outcome with it on.

const GOAL_TIMEOUT_MS = 20_000
const MAX_STEPS = 10

export interface Played {
  goal: GoalResult
  /** The case's own check: the page shows its done text once the goal has returned. */
  shows: boolean
  oracle: Oracle
}

/**
 * Plays the case once. `options` gives what the caller sets besides the oracle's models and the
 * bounds (the checklist, approval), and may replace the oracle's text model. Throws when the page
 * does not load or the goal does not return within its bound.
 */
export async function playTask(browser: Browser, url: string, reachCase: ReachCase, options: (played: Oracle) => GoalOptions): Promise<Played> {
  let opened: Awaited<ReturnType<typeof openFresh>> | undefined
  const played = oracle(reachCase.task.steps)
  // The signal ends a goal stuck on a page; the outer bound also covers a goal that ignores it.
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(new Error(`the goal took more than ${GOAL_TIMEOUT_MS} ms`)), GOAL_TIMEOUT_MS)
  try {
    opened = await openFresh(browser, url)
    const goal = await within(
      GOAL_TIMEOUT_MS + 2_000,
      'the goal',
      agent.goal(opened.page, reachCase.task.goal, {
        decisions: played.decisions,
        text: played.text,
        maxSteps: MAX_STEPS,
        signal: abort.signal,
        // Only when the case has them: a library without the option refuses every unknown one.
        ...(reachCase.task.secrets ? { secrets: reachCase.task.secrets } : {}),
        ...options(played),
      }),
    )
    const reading = opened.page.evaluate((text) => document.body?.innerText.includes(text) ?? false, reachCase.task.doneText)
    const shows = await within(2_000, 'reading the page', reading).catch(() => false)
    return { goal, shows, oracle: played }
  } finally {
    clearTimeout(timer)
    await opened?.close()
  }
}

/** The operations taken, e.g. `CLICK "Save" > DONE`. */
export function pathOf(trace: readonly TraceEntry[]): string {
  return trace.map((entry) => `${entry.operation}${entry.targetName ? ` "${entry.targetName}"` : ''}${entry.stale ? ' (stale)' : ''}`).join(' > ')
}
