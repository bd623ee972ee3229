import type { Browser } from 'puppeteer-core'
import { MockLanguageModelV4 } from 'ai/test'
import agent from '../../src/index.ts'
import type { CacheStatus, CacheStore, TraceEntry } from '../../types/index.d.ts'
import { evaluatorModel, scriptedModel, textModel } from '../../test/helpers/goal-scripted-model.ts'
import { textResult, tokenUsage } from '../../test/helpers/language-models.ts'
import { messageOf } from '../common/message.ts'
import { QUERY, TASKS, type BenchPage, type Template } from './tasks.ts'

// One page of bench:cache: a fresh browser context and a fresh agent, the template's goal, then its
// extraction on the page the goal ended on, each with new scripted models so that their requests
// count for this page only.

/** One step of a goal that acted: its non-model time and whether the cache supplied it. */
export interface StepTime {
  operation: string
  cached: boolean
  match?: 'exact' | 'scored'
  observeMs: number
  decisionMs: number
  actMs: number
  /** observeMs + decisionMs + actMs: the decision model answers at once, so all of it is the library's. */
  nonModelMs: number
}

export interface PageRecord {
  pass: number
  template: Template
  path: string
  /** The goal succeeded and the page verified its checklist, and the extraction read the right data. */
  ok: boolean
  /** What went wrong, when something did. */
  problem?: string
  goalCache?: CacheStatus
  extractCache?: CacheStatus
  /** Decision requests the goal made (the evaluator of profiling() is not one). */
  decisions: number
  goalTextRequests: number
  extractRequests: number
  goalMs: number
  extractMs: number
  steps: StepTime[]
}

/** A text model that writes the rules of the instruction in its prompt, as `{ "rules": … }`. */
function rulesWriter(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      const prompt = JSON.stringify(options.prompt)
      const task = Object.values(TASKS).find((candidate) => prompt.includes(`Instruction: ${candidate.instruction}`))
      if (!task) throw new Error('rules writer: no known instruction in the prompt')
      return textResult(JSON.stringify({ rules: task.rules }), { usage: tokenUsage(2_000, 120) })
    },
  })
}

function stepTimes(trace: readonly TraceEntry[]): StepTime[] {
  return trace.flatMap((entry): StepTime[] => {
    if (entry.stale || entry.operation === 'DONE' || entry.actMs === undefined || entry.observeMs === undefined) return []
    const step: StepTime = {
      operation: entry.operation,
      cached: entry.cached === true,
      observeMs: entry.observeMs,
      decisionMs: entry.decisionMs,
      actMs: entry.actMs,
      nonModelMs: entry.observeMs + entry.decisionMs + entry.actMs,
    }
    if (entry.match) step.match = entry.match
    return [step]
  })
}

export async function runPage(browser: Browser, origin: string, page: BenchPage, cache: string | CacheStore, pass: number): Promise<PageRecord> {
  const task = TASKS[page.template]
  const context = await browser.createBrowserContext()
  try {
    const tab = await context.newPage()
    await tab.goto(new URL(page.path, origin).href, { waitUntil: 'load' })
    const decisions = scriptedModel((request) => task.policy(request))
    const goalText = textModel(QUERY)
    const rules = rulesWriter()
    const agentPage = agent(tab, { cache, evaluator: evaluatorModel(1) })

    let started = performance.now()
    const goal = await agentPage.goal(task.goal, { decisions: decisions.model, text: goalText, checklist: task.checklist, waitMs: 0, maxSteps: 10 })
    const goalMs = performance.now() - started
    started = performance.now()
    const extracted = await agentPage.extract(task.instruction, { text: rules })
    const extractMs = performance.now() - started

    const problems: string[] = []
    if (goal.status !== 'success') problems.push(`goal: ${goal.failure ?? 'error'} (${messageOf(goal.error)})`)
    else if (!goal.verified) problems.push('goal: success the page did not verify')
    if (goal.decisions !== decisions.seen.length) problems.push(`goal: ${goal.decisions} decisions counted, ${decisions.seen.length} asked`)
    const wrong = extracted.status === 'success' ? task.check(extracted.data, page.n) : `extraction: ${messageOf(extracted.error)}`
    if (wrong) problems.push(wrong.startsWith('extraction') ? wrong : `extraction: ${wrong}`)

    const record: PageRecord = {
      pass,
      template: page.template,
      path: page.path,
      ok: problems.length === 0,
      decisions: goal.decisions,
      goalTextRequests: goalText.doGenerateCalls.length,
      extractRequests: rules.doGenerateCalls.length,
      goalMs: Math.round(goalMs * 10) / 10,
      extractMs: Math.round(extractMs * 10) / 10,
      steps: stepTimes(goal.trace),
    }
    if (problems.length > 0) record.problem = problems.join('; ')
    const goalCache = (await goal.profiling()).cache
    if (goalCache) record.goalCache = goalCache
    const extractCache = (await extracted.profiling()).cache
    if (extractCache) record.extractCache = extractCache
    return record
  } finally {
    await context.close().catch(() => {})
  }
}
