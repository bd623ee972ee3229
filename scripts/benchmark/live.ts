import type { Browser } from 'puppeteer-core'
import type { GoalResult } from '../../types/index.d.ts'
import agent from '../../src/index.ts'
import { resolveDecisionModel } from '../../src/models/resolve-model.ts'
import { createLocalDecisionModel } from '../../src/local/index.ts'
import { resolveLocal } from '../../src/options.ts'
import { messageOf } from '../common/message.ts'
import { recordingModel, type CapturedCall, type LiveOutcome, type RecordedRequest } from './recording.ts'

export interface LivePlan {
  url: string
  goal: string
  /** The decision model that runs the goal live, as given on the command line. */
  reference: string
  /** The text model that writes TYPE_TEXT values during the live runs. */
  text: string
  samples: number
  /** Live runs allowed to collect the samples. */
  maxRuns: number
  navigationTimeoutMs: number
  /** Where each live run records itself (run.jsonl, screenshots, report.html); absent: nothing is recorded. */
  record?: string
}

/**
 * Runs the goal live, each run in a fresh browser context, until `samples` decision requests are
 * recorded. A run that ends without a single answered request means the reference model does not
 * work here, and stops the benchmark: there would be nothing to replay.
 */
export async function recordLive(
  browser: Browser,
  plan: LivePlan,
  onRun: (run: number, result: GoalResult, recorded: number) => void,
): Promise<RecordedRequest[]> {
  const recorded: RecordedRequest[] = []
  for (let run = 1; run <= plan.maxRuns && recorded.length < plan.samples; run++) {
    const calls: CapturedCall[] = []
    const decisions = recordingModel(resolveDecisionModel(resolveLocal(plan.reference, createLocalDecisionModel)), (call) => calls.push(call))
    const context = await browser.createBrowserContext()
    try {
      const page = await context.newPage()
      // A slow or failed load is not fatal: the goal runs on whatever loaded, as in compare.
      await page.goto(plan.url, { waitUntil: 'load', timeout: plan.navigationTimeoutMs }).catch(() => {})
      // `false` rather than unset: PUPPETEER_AGENT_RECORD in the environment must not record behind --record's back.
      const result = await agent.goal(page, plan.goal, { decisions, text: plan.text, record: plan.record ?? false })
      const outcome: LiveOutcome = { status: result.status, verified: result.verified }
      if (result.failure) outcome.failure = result.failure
      if (result.report) outcome.report = result.report
      for (const call of calls) {
        recorded.push({ request: recorded.length + 1, run, model: plan.reference, goal: plan.goal, ...call, outcome })
      }
      onRun(run, result, recorded.length)
      if (calls.length === 0) {
        throw new Error(`The live run with "${plan.reference}" answered no decision request: ${result.error ? messageOf(result.error) : result.status}`)
      }
    } finally {
      await context.close().catch(() => {})
    }
  }
  return recorded.slice(0, plan.samples)
}
