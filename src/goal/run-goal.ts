import type { Page } from 'puppeteer-core'
import type { GoalResult } from '../../types/index.d.ts'
import { checkFreshness } from '../collector/check-freshness.ts'
import { observe } from '../collector/observe.ts'
import { lockPage } from '../call/page-lock.ts'
import { decideStep } from '../decision/decide-step.ts'
import { writeText } from '../decision/write-text.ts'
import { UsageError } from '../errors.ts'
import { showValue, mergeSettings, parseOptions, type Settings } from '../options.ts'
import { createGoalProfiling } from '../profiling/goal-profiling.ts'
import { createLedger } from '../profiling/ledger.ts'
import { startChecklist } from './goal-checklist.ts'
import { runGoalLoop, type GoalParts } from './goal-loop.ts'

const PARTS: GoalParts = { observe, checkFreshness, decideStep, writeText, startChecklist }

/**
 * `page.goal(goal, options)`. Rejects with a UsageError when called wrong (no page, an empty goal, an
 * invalid option, another agent call running on the page) before anything runs; every other failure
 * resolves `status: 'error'` with the error. The loop settles as soon as its run is aborted, even with
 * a page call still pending, so the lock never outlives the run.
 */
export async function runGoal(page: Page, goal: unknown, defaults: Partial<Settings>, options: unknown): Promise<GoalResult> {
  if (typeof page !== 'object' || page === null || typeof (page as Page).evaluate !== 'function') {
    throw new UsageError(`goal() needs a Puppeteer Page, got ${showValue(page)}.`)
  }
  if (typeof goal !== 'string' || goal.trim() === '') {
    throw new UsageError(`goal() needs the goal as a non-empty string, got ${showValue(goal)}.`)
  }
  const settings = mergeSettings(defaults, parseOptions(options, 'goal options'))
  const lock = lockPage(page, 'goal')
  try {
    const started = performance.now()
    const ledger = createLedger()
    const outcome = await runGoalLoop(page, goal.trim(), settings, PARTS, ledger)
    const result: GoalResult = {
      status: outcome.status,
      steps: outcome.steps,
      decisions: outcome.decisions,
      trace: outcome.trace,
      checklist: outcome.checklist,
      verified: outcome.verified,
      profiling: createGoalProfiling({
        goal: goal.trim(),
        status: outcome.status,
        ledger,
        observation: outcome.observation,
        trace: outcome.trace,
        settings,
        totalMs: performance.now() - started,
        cache: outcome.cache,
      }),
    }
    if (outcome.error) result.error = outcome.error
    if (outcome.failure) result.failure = outcome.failure
    if (outcome.consent) result.consent = outcome.consent
    return result
  } finally {
    lock.release()
  }
}
