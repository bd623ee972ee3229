import type { Browser } from 'puppeteer-core'
import agent from '../../src/index.ts'
import { firstLine, messageOf } from '../common/message.ts'
import { within } from './bounded.ts'
import { openFresh } from './inspect.ts'
import type { ReachCase } from './load-cases.ts'
import { oracle } from './oracle.ts'

// The case's task, through the whole library: agent.goal on a fresh load with the oracle deciding
// and typing, with the case's secrets if it has any. Completed only when the goal succeeded AND the
// page shows the case's done text: the oracle's DONE is a claim, the page is the proof.

const GOAL_TIMEOUT_MS = 20_000

export interface TaskResult {
  completed: boolean
  status?: 'success' | 'error'
  /** The operations taken, e.g. `CLICK "Save" > DONE`. */
  path?: string
  /** Why it did not complete, in one line. */
  reason?: string
  ms: number
}

export async function runTask(browser: Browser, url: string, reachCase: ReachCase): Promise<TaskResult> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
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
        checklist: false,
        maxSteps: 10,
        signal: abort.signal,
        // Only when the case has them: a library without the option refuses every unknown one.
        ...(reachCase.task.secrets ? { secrets: reachCase.task.secrets } : {}),
      }),
    )
    const path = goal.trace.map((entry) => `${entry.operation}${entry.targetName ? ` "${entry.targetName}"` : ''}${entry.stale ? ' (stale)' : ''}`).join(' > ')
    const reading = opened.page.evaluate((text) => document.body?.innerText.includes(text) ?? false, reachCase.task.doneText)
    const shows = await within(2_000, 'reading the page', reading).catch(() => false)
    const completed = goal.status === 'success' && shows
    const result: TaskResult = { completed, status: goal.status, path, ms: elapsed() }
    if (!completed) {
      result.reason =
        played.blocked !== undefined
          ? `oracle blocked at ${played.blocked}`
          : goal.status !== 'success'
            ? `${goal.failure ?? 'error'}: ${firstLine(messageOf(goal.error))}`
            : `the goal succeeded but the page does not show "${reachCase.task.doneText}"`
    }
    return result
  } catch (error) {
    return { completed: false, reason: firstLine(messageOf(error)), ms: elapsed() }
  } finally {
    clearTimeout(timer)
    await opened?.close()
  }
}
