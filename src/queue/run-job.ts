// One attempt at one job: a browser context of its own, the page at the job's URL, the goals in order,
// then the extraction, and the result as JSON. What the attempt reaches is written to the job's
// progress before each step; an attempt that must not act (a retry after a goal that may have acted)
// says why instead.
import type { Browser, Page } from 'puppeteer-core'
import type { AgentOptions, ExtractResult } from '../../types/index.d.ts'
import type { JobGoalResult, JobResult, RetryRecord, WorkJob } from '../../types/queue.d.ts'
import { agent } from '../index.ts'
import type { AttemptLog } from './attempt-log.ts'
import { plainExtract, plainGoal } from './plain-result.ts'

/** The attempt failed for a reason another attempt may not meet: the page did not load, the browser went away. */
export class RetryableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'RetryableError'
  }
}

export interface AttemptContext {
  browser: Browser
  log: AttemptLog
  retried: RetryRecord | undefined
  /** Set when this attempt must not act, with the reason. */
  interrupted: string | undefined
  defaults: AgentOptions
  /** Milliseconds the page may take to load. */
  navigationTimeout: number
}

/** What the attempt found; the job's result is this with who ran it, when, and how long it took. */
type Outcome = Omit<JobResult, 'id' | 'url' | 'attempt' | 'retried' | 'worker' | 'ms'>

/** Runs the attempt; resolves the job's result, or throws (RetryableError or a bug) after writing `failed` to its record. */
export async function runJob(job: WorkJob, context: AttemptContext): Promise<JobResult> {
  const started = performance.now()
  const { log, retried } = context
  const head = { id: job.id, url: job.url, attempt: log.record.attempt, ...(retried && { retried }), worker: log.record.worker }
  const finish = (rest: Outcome): JobResult => ({ ...head, ...rest, ms: Math.round(performance.now() - started) })
  try {
    if (context.interrupted) {
      await log.update((record) => (record.stage = 'done'))
      return finish({ status: 'error', failure: 'interrupted', error: context.interrupted, goals: [] })
    }
    // On record before the page is asked for: a worker that dies from here on has left a trace.
    await log.update()
    const result = await onOwnContext(context.browser, (page) => attempt(job, page, context))
    await log.update((record) => (record.stage = 'done'))
    return finish(result)
  } catch (error) {
    // The attempt's own error is what bullmq must see, even when Redis cannot take the record.
    await log
      .update((record) => {
        record.stage = 'failed'
        record.error = (error as Error).message
      })
      .catch(() => {})
    throw error
  }
}

async function attempt(job: WorkJob, page: Page, context: AttemptContext): Promise<Outcome> {
  const { log } = context
  const response = await page.goto(job.url, { waitUntil: 'load', timeout: context.navigationTimeout }).catch((error: Error) => {
    throw new RetryableError(`Loading ${job.url} failed: ${error.message}`, { cause: error })
  })
  const http = response?.status()
  const loaded = http === undefined ? {} : { http }
  const agentPage = agent(page, { ...context.defaults, ...job.options })
  const goals: JobGoalResult[] = []
  for (const [index, goal] of job.goals.entries()) {
    await log.goalStarted(index)
    const result = await agentPage.goal(goal)
    await log.goalFinished(index, result.status)
    if (result.failure === 'page_gone') throw new RetryableError(`goals[${index}]: ${result.error?.message}`, { cause: result.error })
    goals.push(plainGoal(goal, result))
    if (result.status === 'error') {
      // The goals after it, and the extraction, would run on a page the failed goal left half-done.
      return { status: 'error', failure: 'goal', error: `goals[${index}] ended with ${result.failure}: ${result.error?.message}`, ...loaded, goals }
    }
  }
  if (!job.extract) return { status: 'success', ...loaded, goals }
  await log.update((record) => (record.stage = 'extract'))
  const { instruction, rules } = job.extract
  const read: ExtractResult = instruction === undefined ? await agentPage.extract(rules!) : await agentPage.extract(instruction, rules ?? null)
  if (read.status === 'error' && read.error.name === 'PageGoneError') throw new RetryableError(`extract: ${read.error.message}`, { cause: read.error })
  const extract = plainExtract(read)
  if (read.status === 'error') return { status: 'error', failure: 'extract', error: `extract failed: ${read.error.message}`, ...loaded, goals, extract }
  return { status: 'success', ...loaded, goals, extract }
}

/** Cookies and storage of one job never reach another: each runs in a context of its own, closed after. */
async function onOwnContext<T>(browser: Browser, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.createBrowserContext().catch((error: Error) => {
    throw new RetryableError(`The browser could not open a context: ${error.message}`, { cause: error })
  })
  try {
    return await run(await context.newPage())
  } finally {
    await context.close().catch(() => {})
  }
}
