import type { Browser } from 'puppeteer-core'
import { firstLine, messageOf } from '../common/message.ts'
import type { ReachCase } from './load-cases.ts'
import { pathOf, playTask } from './play.ts'

// The case's task as bench:reach measures it: played with the checklist off (play.ts), completed
// only when the goal succeeded AND the page shows the case's done text.

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
  try {
    const { goal, shows, oracle } = await playTask(browser, url, reachCase, () => ({ checklist: false }))
    const completed = goal.status === 'success' && shows
    const result: TaskResult = { completed, status: goal.status, path: pathOf(goal.trace), ms: elapsed() }
    if (!completed) {
      result.reason =
        oracle.blocked !== undefined
          ? `oracle blocked at ${oracle.blocked}`
          : goal.status !== 'success'
            ? `${goal.failure ?? 'error'}: ${firstLine(messageOf(goal.error))}`
            : `the goal succeeded but the page does not show "${reachCase.task.doneText}"`
    }
    return result
  } catch (error) {
    return { completed: false, reason: firstLine(messageOf(error)), ms: elapsed() }
  }
}
