import type { Page } from 'puppeteer-core'
import type { GoalResult } from '../../types/index.d.ts'
import { checkFreshness } from '../collector/check-freshness.ts'
import { observe } from '../collector/observe.ts'
import { lockPage } from '../call/page-lock.ts'
import { decideStep } from '../decision/decide-step.ts'
import { writeText } from '../decision/write-text.ts'
import { UsageError } from '../errors.ts'
import { showValue } from '../base/show-value.ts'
import { mergeSettings, parseOptions, type Settings } from '../options.ts'
import { createGoalProfiling } from '../profiling/goal-profiling.ts'
import { createLedger, summarizeCost, summarizeTiming, type Ledger } from '../base/ledger.ts'
import { recordGoal } from '../record/goal-recording.ts'
import { RunRecorder, type FinishedRun } from '../record/run-recorder.ts'
import { scrubberOf } from '../secrets/scrub.ts'
import { startChecklist } from './goal-checklist.ts'
import { runGoalLoop, type GoalParts } from './goal-loop.ts'
import type { LoopOutcome } from './loop-outcome.ts'

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
  // A goal that spells out a secret is sent, recorded and cached with its placeholder instead.
  const told = scrubberOf(settings.secrets)(goal.trim())
  const lock = lockPage(page, 'goal')
  try {
    const started = performance.now()
    const ledger = createLedger()
    const recorder = settings.record ? new RunRecorder(settings.record, page, 'goal', told) : undefined
    const listeners = recorder ? [recordGoal(recorder, page, ledger, settings.vision)] : []
    const outcome = await runGoalLoop(page, told, settings, PARTS, ledger, listeners)
    const totalMs = performance.now() - started
    const result: GoalResult = {
      status: outcome.status,
      steps: outcome.steps,
      decisions: outcome.decisions,
      trace: outcome.trace,
      checklist: outcome.checklist,
      verified: outcome.verified,
      profiling: createGoalProfiling({
        goal: told,
        status: outcome.status,
        ledger,
        observation: outcome.observation,
        trace: outcome.trace,
        settings,
        totalMs,
        cache: outcome.cache,
        ...(recorder ? { onEvaluated: (accuracy) => recorder.evaluated(accuracy) } : {}),
      }),
    }
    if (outcome.error) result.error = outcome.error
    if (outcome.failure) result.failure = outcome.failure
    if (outcome.consent) result.consent = outcome.consent
    if (recorder) {
      const report = await recorder.finish(resultLine(told, outcome, ledger, totalMs))
      if (report) result.report = report
    }
    return result
  } finally {
    lock.release()
  }
}

/** The result as the recording's last line tells it; checklist evidence of typed values is left to the trace. */
function resultLine(goal: string, outcome: LoopOutcome, ledger: Ledger, totalMs: number): FinishedRun {
  const line: FinishedRun = {
    call: 'goal',
    goal,
    status: outcome.status,
    steps: outcome.steps,
    decisions: outcome.decisions,
    verified: outcome.verified,
    checklist: outcome.checklist.items.map((item) => ({ description: item.description, kind: item.check.kind, status: item.status })),
    cost: summarizeCost(ledger.calls),
    timing: summarizeTiming(ledger.calls, totalMs, 0),
  }
  if (outcome.observation) Object.assign(line, { url: outcome.observation.url, title: outcome.observation.title })
  if (outcome.error) line.reason = outcome.error.message
  if (outcome.failure) line.failure = outcome.failure
  if (outcome.cache) line.cache = outcome.cache
  return line
}
