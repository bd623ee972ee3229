import type { Browser, Page } from 'puppeteer-core'
import type { GoalOptions } from '../../types/index.d.ts'
import agent from '../../src/index.ts'
import { messageOf } from '../common/message.ts'
import type { Arm, ChecklistRunRecord } from './record.ts'
import type { ChecklistTask } from './tasks.ts'
import { verifyFinalPage } from './verify-block.ts'

/** Where each site is served: the task's `path` is resolved against it. */
export interface SiteOrigins {
  fixtures: string
  demo: string
}

// Every task of the suite needs at most five actions; a run that wanders is cut off well before the
// library's default of 60, which keeps the whole benchmark within minutes on two cores.
const MAX_STEPS = 15
const NAVIGATION_TIMEOUT_MS = 30_000

/** The offline models, the evaluator included, so that nothing reaches the network. */
const OFFLINE: GoalOptions = { decisions: 'local', text: 'local', evaluator: 'local' }

/**
 * Runs a task once in a fresh browser context and verifies the final page. Risky actions are approved:
 * nothing on these sites is bought or sent, and a stop for approval would hide what the checklist does.
 */
export async function runTask(browser: Browser, origins: SiteOrigins, task: ChecklistTask, arm: Arm, run: number): Promise<ChecklistRunRecord> {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await open(page, new URL(task.path, origins[task.site]).href, task.frame)
    const started = performance.now()
    const result = await agent.goal(page, task.goal, { ...OFFLINE, maxSteps: MAX_STEPS, checklist: arm === 'on', approve: () => true })
    const goalMs = Math.round(performance.now() - started)
    const verification = await verifyFinalPage(page, task.verify)
    const record: ChecklistRunRecord = {
      task: task.name,
      arm,
      run,
      status: result.status,
      agentVerified: result.verified,
      verified: verification.passed,
      finalUrl: verification.finalUrl,
      steps: result.steps,
      decisions: result.decisions,
      goalMs,
    }
    if (result.error) record.error = messageOf(result.error)
    if (result.failure) record.failure = result.failure
    if (!verification.passed) record.verifyFailed = verification.failed
    if (arm === 'on') record.checklist = result.checklist
    return record
  } finally {
    await context.close().catch(() => {})
  }
}

async function open(page: Page, url: string, frame: string | undefined): Promise<void> {
  await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS })
  if (frame !== undefined) await page.waitForFrame((candidate) => candidate.url().includes(frame), { timeout: NAVIGATION_TIMEOUT_MS })
}
