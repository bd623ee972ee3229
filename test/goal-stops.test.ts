import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent, { BlockedError } from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import type { GoalResult, PendingAction } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { scriptedModel, textDecider, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// Every way a goal stops: each BlockedError reason, the budgets, the signal, failures as thrown, and
// the calls that are refused before anything runs.

const chrome = useChrome(test)
let server: FixtureServer

test.before(async () => {
  server = await serveFixtures()
})
test.after.always(() => server?.close())

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(server.url(path))
  return page
}

function run(page: Page, steps: ScriptStep[], options: Record<string, unknown> = {}) {
  const scripted = scriptedModel(steps)
  // Without a checklist: these stops come before, or instead of, any check of DONE (see goal-checklist).
  const result = agent(page).goal('Reach the goal.', { decisions: scripted.model, text: textModel('x'), checklist: false, ...options })
  return { scripted, result }
}

function blocked(t: { true(value: boolean, message?: string): void; is(a: unknown, b: unknown): void }, result: GoalResult, reason: string) {
  t.is(result.status, 'error')
  t.true(result.error instanceof BlockedError, `expected a BlockedError, got ${String(result.error)}`)
  const error = result.error as BlockedError
  t.is(error.code, 'BLOCKED')
  t.is(error.reason, reason)
  t.is(error.trace, result.trace)
}

test('captcha: human verification stops the run before any decision', async (t) => {
  const page = await open(t, 'sites/captcha/index.html')
  const { scripted, result } = run(page, [{ operation: 'DONE' }])
  const outcome = await result
  blocked(t, outcome, 'captcha')
  t.regex(outcome.error!.message, /human verification.*no bypass/)
  t.is(outcome.decisions, 0)
  t.is(scripted.seen.length, 0)
  t.deepEqual(outcome.trace, [])
})

test('login_wall: a visible password field stops the run', async (t) => {
  const page = await open(t, 'sites/login/index.html')
  const outcome = await run(page, [{ operation: 'DONE' }]).result
  blocked(t, outcome, 'login_wall')
  t.is(outcome.decisions, 0)
})

test('unsupported_surface: a document without a body (an SVG file) stops the run before any request', async (t) => {
  const page = await open(t, 'sites/no-body/chart.svg')
  const outcome = await run(page, [{ operation: 'DONE' }]).result
  blocked(t, outcome, 'unsupported_surface')
  t.regex(outcome.error!.message, /has no body/)
  t.is(outcome.decisions, 0)
})

test('model_blocked: the model chose BLOCKED', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const outcome = await run(page, [{ operation: 'BLOCKED' }]).result
  blocked(t, outcome, 'model_blocked')
  t.is(outcome.decisions, 1)
  t.like(outcome.trace[0], { operation: 'BLOCKED', request: 1, step: 0 })
})

test('no_change: three actions in a row that change nothing stop the run; each is not offered again', async (t) => {
  const page = await open(t, 'sites/noop/index.html')
  const { scripted, result } = run(page, [{ operation: 'CLICK', target: /Save settings|Sync now|Refresh/ }])
  const outcome = await result
  blocked(t, outcome, 'no_change')
  t.is(outcome.steps, 3)
  t.deepEqual(
    outcome.trace.map((entry) => [entry.targetName, entry.pageChanged]),
    [['Save settings', false], ['Sync now', false], ['Refresh', false]],
  )
  const offered = scripted.seen.map((request) =>
    request.elements.filter((element) => request.questions.click_target!.includes(element.id)).map((element) => element.name),
  )
  t.deepEqual(offered, [['Save settings', 'Sync now', 'Refresh'], ['Sync now', 'Refresh'], ['Refresh']])
  t.like(scripted.seen[1]!.recent[0], { target_name: 'Save settings', outcome: 'no_change' })
})

test('stale_target: three decisions in a row on a target that is stale each time', async (t) => {
  const page = await open(t, 'sites/stale/index.html')
  const rerender = () => page.evaluate(() => (window as unknown as { rerender(): void }).rerender())
  const { result } = run(page, [{ operation: 'CLICK', target: 'Buy Apples', before: rerender }])
  const outcome = await result
  blocked(t, outcome, 'stale_target')
  t.is(outcome.steps, 0)
  t.is(outcome.decisions, 3)
  t.true(outcome.trace.every((entry) => entry.stale && entry.staleReason !== undefined))
  t.is(await page.$eval('#picked', (element) => element.textContent), 'Nothing picked.')
})

test('step_budget: maxSteps allows a final DONE but no further input', async (t) => {
  const page = await open(t, 'sites/spa/index.html')
  const done = await run(page, [{ operation: 'CLICK', target: 'About us' }, { operation: 'DONE' }], { maxSteps: 1 }).result
  t.is(done.status, 'success')
  t.is(done.steps, 1)

  const more = await run(page, [{ operation: 'CLICK', target: 'Contact' }, { operation: 'CLICK', target: 'Home' }], { maxSteps: 1 }).result
  blocked(t, more, 'step_budget')
  t.regex(more.error!.message, /maxSteps/)
  t.is(more.steps, 1)
  t.is(more.decisions, 2)
  t.true(page.url().endsWith('/sites/spa/contact'))
})

test('step_budget: maxDecisions counts every request', async (t) => {
  const page = await open(t, 'sites/spa/index.html')
  const outcome = await run(page, [{ operation: 'CLICK', target: 'About us' }, { operation: 'CLICK', target: 'Contact' }, { operation: 'DONE' }], {
    maxDecisions: 2,
  }).result
  blocked(t, outcome, 'step_budget')
  t.regex(outcome.error!.message, /maxDecisions/)
  t.is(outcome.decisions, 2)
})

test('low_confidence: a choice less probable than minConfidence stops the run before it acts', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const outcome = await run(page, [{ operation: 'CLICK', target: '42 comments', confidence: 0.4 }], { minConfidence: 0.5 }).result
  blocked(t, outcome, 'low_confidence')
  t.regex(outcome.error!.message, /probability 0\.4, below minConfidence 0\.5/)
  t.is(outcome.steps, 0)
  t.true(page.url().endsWith('/sites/news/index.html'))
})

test('risk_review: a risky action without approve stops the run before it', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  const outcome = await run(page, [{ operation: 'CLICK', target: 'Place order', risk: 0.9 }]).result
  blocked(t, outcome, 'risk_review')
  t.like(outcome.trace[0], { operation: 'CLICK', risk: 0.9 })
  t.is(await page.$eval('#summary', (element) => element.textContent), '')
})

test('risk_review: with decisions: false, an action the text model did not rate counts as risky', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  // Replies as the README describes it, { operation, target }, with no risky.
  const text = textDecider([{ operation: 'CLICK', target: 'Place order', risky: null }])
  const outcome = await agent(page).goal('Place the order.', { decisions: false, text, checklist: false })
  blocked(t, outcome, 'risk_review')
  t.like(outcome.trace[0], { operation: 'CLICK', targetName: 'Place order', risk: 1 })
  t.is(await page.$eval('#summary', (element) => element.textContent), '')
})

test('approve(): an approved risky action runs; a declined one is told to the model and not offered again', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  const asked: PendingAction[] = []
  const { scripted, result } = run(
    page,
    [
      { operation: 'CLICK', target: 'Place order', risk: 0.8 },
      { operation: 'CLICK', target: /Extra cheese/, risk: 0.7 },
      { operation: 'CLICK', target: 'Place order', risk: 0.8 },
      { operation: 'DONE' },
    ],
    {
      approve: (action: PendingAction) => {
        asked.push(action)
        return asked.length > 1
      },
    },
  )
  const outcome = await result
  t.is(outcome.status, 'success')
  t.is(asked.length, 3)
  t.like(asked[0], { operation: 'CLICK', targetName: 'Place order', risk: 0.8, url: server.url('sites/form/index.html') })
  t.like(outcome.trace[0], { approved: false, pageChanged: false, step: 0 })
  t.like(outcome.trace[1], { approved: true, step: 1 })
  t.like(scripted.seen[1]!.recent[0], { target_name: 'Place order', outcome: 'declined' })
  // Still shown, no longer offered to click: the history says why.
  const placeOrder = scripted.seen[1]!.elements.find((element) => element.name === 'Place order')!
  t.false(scripted.seen[1]!.questions.click_target!.includes(placeOrder.id))
  t.regex(await page.$eval('#summary', (element) => element.textContent ?? ''), /with extra cheese/)
})

test('signal: an abort before a decision resolves status error with the reason', async (t) => {
  const page = await open(t, 'sites/spa/index.html')
  const controller = new AbortController()
  const reason = new Error('stop now')
  const { scripted, result } = run(page, [{ operation: 'CLICK', target: 'About us', before: () => controller.abort(reason) }, { operation: 'DONE' }], {
    signal: controller.signal,
  })
  const outcome = await result
  t.is(outcome.status, 'error')
  // Aborted during the first request: no input followed.
  t.is(outcome.error, reason)
  t.is(outcome.steps, 0)
  t.is(scripted.seen.length, 1)
  t.false(page.url().endsWith('/about'))
})

test('signal: an abort just before the input stops it', async (t) => {
  const page = await open(t, 'sites/search/index.html')
  const controller = new AbortController()
  const outcome = await run(page, [{ operation: 'TYPE_TEXT', target: /Search books/, risk: 0.9 }], {
    signal: controller.signal,
    text: textModel('dune'),
    approve: () => {
      controller.abort('caller left')
      return true
    },
  }).result
  t.is(outcome.status, 'error')
  t.regex(outcome.error!.message, /caller left/)
  t.is(outcome.steps, 0)
  t.is(outcome.trace[0]!.text, 'dune')
  t.is(await page.$eval('input', (element) => (element as HTMLInputElement).value), '')
})

test('a failing model resolves status error with the error as thrown', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const failure = new Error('provider exploded')
  const model = { ...scriptedModel([]).model, doDecide: async () => Promise.reject(failure) }
  const outcome = await agent(page).goal('Anything.', { decisions: model, maxRetries: 0, checklist: false })
  t.is(outcome.status, 'error')
  t.is(outcome.error, failure)
  t.is(outcome.decisions, 0)
})

test('something thrown that is not an Error is wrapped, with the original as cause', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  const outcome = await run(page, [{ operation: 'CLICK', target: 'Place order', risk: 0.9 }], {
    approve: () => {
      throw 'no approver on duty'
    },
  }).result
  t.is(outcome.status, 'error')
  t.true(outcome.error instanceof Error)
  t.is(outcome.error!.cause, 'no approver on duty')
})

test('called wrong: no page, an empty goal, an invalid option, a goal already running', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const decorated = agent(page)
  t.throws(() => agent.goal(undefined as unknown as Page, 'x'), { instanceOf: UsageError })
  await t.throwsAsync(decorated.goal(''), { instanceOf: UsageError, message: /non-empty string/ })
  await t.throwsAsync(decorated.goal('   '), { instanceOf: UsageError })
  await t.throwsAsync(decorated.goal(42 as unknown as string), { instanceOf: UsageError })
  await t.throwsAsync(decorated.goal('x', { maxSteps: 0 }), { instanceOf: UsageError, message: /maxSteps/ })
  await t.throwsAsync(decorated.goal('x', { nope: 1 } as never), { instanceOf: UsageError, message: /Unknown option "nope"/ })

  let release!: () => void
  const held = new Promise<void>((resolve) => {
    release = resolve
  })
  const first = run(page, [{ operation: 'DONE', before: () => held }]).result
  await t.throwsAsync(agent.goal(page, 'second goal', { decisions: scriptedModel([{ operation: 'DONE' }]).model }), {
    instanceOf: UsageError,
    message: /already running on this page/,
  })
  release()
  t.is((await first).status, 'success')
  // The lock is released however the run ended.
  t.is((await run(page, [{ operation: 'BLOCKED' }]).result).status, 'error')
  t.is((await run(page, [{ operation: 'DONE' }]).result).status, 'success')
})
