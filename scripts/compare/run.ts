import type { Browser, BrowserContext, Page } from 'puppeteer-core'
import type { Cost, ExtractProfiling, ExtractResult, GoalProfiling, GoalResult, Rules } from '../../types/index.d.ts'
import agent from '../../src/index.ts'
import { BlockedError } from '../../src/errors.ts'
import { messageOf } from '../common/message.ts'
import { strictSum } from '../common/stats.ts'
import { actionsWithoutPageChange, countValues, dataHash, minConfidence, pathOf, RECORD_FIELDS, staleDecisions, type CompareRecord } from './record.ts'
import { setupOptions, type Setup } from './setups.ts'
import { hasChecks, verifyPage, type Checks } from './verify.ts'

/** What every run of a comparison does. */
export interface Task {
  url: string
  /** Goals run one after another on the same page; a goal that does not finish ends the run. */
  goals: string[]
  /** Extraction instruction (the text model writes the rules) or rules (no model), run after every goal finished. */
  extract?: string | Rules
  checks: Checks
  evaluator: string
  navigationTimeoutMs: number
  /** Where every goal and extraction records its run (report.html and all); absent: nothing is recorded. */
  record?: string
}

/**
 * One run of one setup in a fresh browser context. Never throws: anything that goes wrong, including
 * a run that cannot start, becomes the record's `status` and `error`.
 */
export async function runOnce(browser: Browser, setup: Setup, task: Task, run: number): Promise<CompareRecord> {
  const record: CompareRecord = {
    ...setup,
    run,
    status: 'error',
    goalsDone: 0,
    path: '',
    decisionRequests: 0,
    staleDecisions: 0,
    actionsWithoutPageChange: 0,
  }
  // Collected as the calls return, so a run that breaks half-way still links what it recorded.
  const reports: string[] | undefined = task.record === undefined ? undefined : []
  if (reports) record.reports = reports
  // `false` rather than unset: PUPPETEER_AGENT_RECORD in the environment must not record behind --record's back.
  const recordOption: string | false = task.record ?? false
  let context: BrowserContext | undefined
  try {
    context = await browser.createBrowserContext()
    const page = await context.newPage()
    const navigationError = await load(page, task)
    if (navigationError) record.navigationError = navigationError
    const options = { ...setupOptions(setup, task.evaluator), record: recordOption }
    const results: GoalResult[] = []
    for (const goal of task.goals) {
      const result = await agent.goal(page, goal, options)
      results.push(result)
      if (result.report) reports?.push(result.report)
      if (result.status !== 'success') break
      record.goalsDone += 1
    }
    const traces = results.map((result) => result.trace)
    Object.assign(record, outcome(results), {
      path: pathOf(traces),
      decisionRequests: results.reduce((sum, result) => sum + result.decisions, 0),
      staleDecisions: staleDecisions(traces),
      actionsWithoutPageChange: actionsWithoutPageChange(traces),
      minConfidence: minConfidence(traces),
    })
    const profiles = await profilesOf(results)
    Object.assign(record, goalFigures(profiles, record.status === 'done'))
    record.finalUrl = page.url()
    if (hasChecks(task.checks)) {
      const verification = await verifyPage(page, task.checks).catch((error: unknown) => ({
        verified: false,
        failed: [`could not read the final page: ${messageOf(error)}`],
      }))
      record.verified = verification.verified
      if (!verification.verified) record.verifyFailed = verification.failed
    }
    if (task.extract !== undefined && record.status === 'done') {
      const extraction = await extractOnce(page, task.extract, setup, recordOption)
      if (extraction.report) reports?.push(extraction.report)
      Object.assign(record, extraction.fields)
      addCost(record, extraction.cost)
    }
  } catch (error) {
    // The goals' own outcome stands; only a run that broke before it had one becomes an error.
    record.error ??= messageOf(error)
  } finally {
    await context?.close().catch(() => {})
  }
  return inRecordOrder(record)
}

/** Loads the task URL; an error is reported and the run goes on with whatever loaded. */
async function load(page: Page, task: Task): Promise<string | undefined> {
  try {
    await page.goto(task.url, { waitUntil: 'load', timeout: task.navigationTimeoutMs })
    return undefined
  } catch (error) {
    return messageOf(error)
  }
}

function outcome(results: readonly GoalResult[]): Pick<CompareRecord, 'status' | 'failure' | 'agentVerified' | 'error'> {
  // A goal that failed is never verified, so this holds only when every goal ran, succeeded and was proven.
  const agentVerified = results.every((result) => result.verified)
  const failed = results.find((result) => result.status !== 'success')
  if (!failed) return { status: 'done', agentVerified }
  const error = failed.error ?? new Error('the goal failed without an error')
  return { status: error instanceof BlockedError ? error.reason : 'error', failure: failed.failure, agentVerified, error: messageOf(error) }
}

/** Each goal's profiling; undefined for a goal whose profiling itself failed, so its cost stays unknown. */
async function profilesOf(results: readonly GoalResult[]): Promise<(GoalProfiling | undefined)[]> {
  const profiles: (GoalProfiling | undefined)[] = []
  for (const result of results) profiles.push(await result.profiling().catch(() => undefined))
  return profiles
}

function goalFigures(profiles: readonly (GoalProfiling | undefined)[], finished: boolean): Partial<CompareRecord> {
  const known = profiles.filter((profile) => profile !== undefined)
  const figures: Partial<CompareRecord> = {}
  const accuracies = known.map((profile) => profile.accuracy)
  // The judgment counts only for a finished run in which every goal was judged.
  if (finished && known.length === profiles.length && accuracies.every((accuracy) => accuracy !== undefined)) {
    figures.passed = accuracies.every((accuracy) => accuracy.passed)
    figures.probability = Math.min(...accuracies.map((accuracy) => accuracy.probability))
  }
  if (profiles.length > 0 && known.length === profiles.length) {
    Object.assign(figures, costFields(known.map((profile) => profile.cost)))
    figures.totalMs = known.reduce((sum, profile) => sum + profile.timing.totalMs, 0)
    figures.modelMs = known.reduce((sum, profile) => sum + profile.timing.modelMs, 0)
  }
  return figures
}

function costFields(costs: readonly Cost[]): Pick<CompareRecord, 'calls' | 'inputTokens' | 'outputTokens' | 'usd'> {
  return {
    calls: costs.reduce((sum, cost) => sum + cost.calls, 0),
    inputTokens: strictSum(costs.map((cost) => cost.inputTokens)),
    outputTokens: strictSum(costs.map((cost) => cost.outputTokens)),
    usd: strictSum(costs.map((cost) => cost.usd)),
  }
}

/** Adds the extraction's cost to the run's; a figure either side did not report makes the sum unknown. */
function addCost(record: CompareRecord, cost: Cost | undefined): void {
  if (record.calls === undefined) return
  if (cost === undefined) {
    for (const field of ['calls', 'inputTokens', 'outputTokens', 'usd'] as const) delete record[field]
    return
  }
  record.calls += cost.calls
  record.inputTokens = strictSum([record.inputTokens, cost.inputTokens])
  record.outputTokens = strictSum([record.outputTokens, cost.outputTokens])
  record.usd = strictSum([record.usd, cost.usd])
}

async function extractOnce(
  page: Page,
  what: string | Rules,
  setup: Setup,
  record: string | false,
): Promise<{ fields: Partial<CompareRecord>; cost: Cost | undefined; report?: string }> {
  let result: ExtractResult
  try {
    const options = { text: setup.text, reasoning: setup.reasoning, record }
    result = typeof what === 'string' ? await agent.extract(page, what, options) : await agent.extract(page, what, options)
  } catch (error) {
    return { fields: { extracted: false, extractError: messageOf(error) }, cost: undefined }
  }
  const profile: ExtractProfiling | undefined = await result.profiling().catch(() => undefined)
  const fields: Partial<CompareRecord> = {
    extractMs: profile?.timing.totalMs,
    extractUsd: profile?.cost.usd,
  }
  if (result.status === 'success') {
    fields.dataValues = countValues(result.data)
    fields.extracted = fields.dataValues > 0
    fields.dataHash = dataHash(result.data)
  } else {
    fields.extracted = false
    fields.extractError = messageOf(result.error)
  }
  return { fields, cost: profile?.cost, ...(result.report ? { report: result.report } : {}) }
}

/** The fields in the order of the README's table, the unknown ones left out. */
function inRecordOrder(record: CompareRecord): CompareRecord {
  const ordered = Object.fromEntries(RECORD_FIELDS.flatMap((field) => (record[field] === undefined ? [] : [[field, record[field]]])))
  return ordered as unknown as CompareRecord
}
