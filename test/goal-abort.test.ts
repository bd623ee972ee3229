import test, { type ExecutionContext } from 'ava'
import { EventEmitter, once } from 'node:events'
import type { Browser, Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { observe } from '../src/collector/observe.ts'
import type { GoalResult } from '../types/index.d.ts'
import { launchChrome, useChrome } from './helpers/chrome.ts'
import { serveFixtures, stuckRoute, type FixtureServer } from './helpers/fixture-server.ts'
import { scriptedModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// A run ends when the caller aborts, the page closes or the browser goes away, whatever the page is
// doing: a busy loop, an endless alert(), a request that never answers, or an approve() that never
// answers. Serial, so that the latencies logged are not those of a machine busy with other tests.

const chrome = useChrome(test)
let server: FixtureServer
// The stuck page tells the server when it is stuck (`/stuck/spinning`, `/stuck/hang`).
const heard = new EventEmitter()

test.before(async () => {
  server = await serveFixtures({
    routes: [stuckRoute(heard)],
  })
})
test.after.always(() => server?.close())

// A hang guard, not a benchmark: the requirement is 1 s after an abort and 100 ms after a close, and
// the figures are logged. Without the run's signal these runs stayed pending for Puppeteer's protocol
// timeout (3 minutes by default), past ava's own timeout.
const HANG_GUARD_MS = 3_000

async function stuckPage(t: ExecutionContext): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(server.url('sites/stuck/index.html'))
  return page
}

function goal(page: Page, steps: ScriptStep[], options: Record<string, unknown> = {}): Promise<GoalResult> {
  return agent(page).goal('Get the results.', { decisions: scriptedModel(steps).model, checklist: false, ...options })
}

/** Milliseconds from `start` until `run` settles. */
async function settledAfter<T>(start: number, run: Promise<T>): Promise<{ value: T; ms: number }> {
  const value = await run
  return { value, ms: Math.round(performance.now() - start) }
}

function never(): Promise<never> {
  return new Promise<never>(() => {})
}

/** The page's lock is free: a goal starts at once and ends for its own reason, here an aborted signal. */
async function lockReleased(t: ExecutionContext, page: Page): Promise<void> {
  const reason = new Error('second goal, aborted before it starts')
  const second = await goal(page, [{ operation: 'DONE' }], { signal: AbortSignal.abort(reason) })
  t.is(second.status, 'error')
  t.is(second.error, reason)
}

test.serial('a busy loop: an abort resolves status error with its reason at once, and the page is free again', async (t) => {
  const page = await stuckPage(t)
  const dialogListeners = page.listenerCount('dialog')
  const controller = new AbortController()
  const reason = new Error('caller gave up')
  const run = goal(page, [{ operation: 'CLICK', target: 'Spin forever' }], { signal: controller.signal })
  await once(heard, '/stuck/spinning')
  const aborted = performance.now()
  controller.abort(reason)
  const { value: result, ms } = await settledAfter(aborted, run)
  t.log(`busy loop: settled ${ms} ms after the abort`)
  t.true(ms < HANG_GUARD_MS)
  t.is(result.status, 'error')
  t.is(result.error, reason)
  t.is(page.listenerCount('dialog'), dialogListeners, 'the dialog listener came off')
  await lockReleased(t, page)
})

test.serial('an endless alert() loop: an abort resolves status error at once, and the page is free again', async (t) => {
  const page = await stuckPage(t)
  const controller = new AbortController()
  let dialogs = 0
  // Counts what the run answers; answering is the run's job, so this listener never does.
  page.on('dialog', () => {
    dialogs += 1
    if (dialogs === 3) controller.abort(new Error('enough alerts'))
  })
  const counted = page.listenerCount('dialog')
  let aborted = 0
  controller.signal.addEventListener('abort', () => {
    aborted = performance.now()
  })
  const result = await goal(page, [{ operation: 'CLICK', target: 'Alert forever' }], { signal: controller.signal })
  const ms = Math.round(performance.now() - aborted)
  t.log(`alert loop: settled ${ms} ms after the abort (${dialogs} alerts seen)`)
  t.true(ms < HANG_GUARD_MS)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'enough alerts')
  t.is(page.listenerCount('dialog'), counted, "the run's dialog listener came off")
  await lockReleased(t, page)
})

test.serial('an approve callback that never answers: an abort ends the run, its listeners come off, the page is usable', async (t) => {
  const page = await stuckPage(t)
  const dialogListeners = page.listenerCount('dialog')
  const controller = new AbortController()
  let asked!: () => void
  const approveCalled = new Promise<void>((resolve) => {
    asked = resolve
  })
  const run = goal(page, [{ operation: 'CLICK', target: 'Load results', risk: 0.9 }], {
    signal: controller.signal,
    approve: () => {
      asked()
      return never()
    },
  })
  await approveCalled
  const aborted = performance.now()
  controller.abort(new Error('no answer from the approver'))
  const { value: result, ms } = await settledAfter(aborted, run)
  t.log(`approve never answering: settled ${ms} ms after the abort`)
  t.true(ms < HANG_GUARD_MS)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'no answer from the approver')
  t.is(result.trace[0]!.approved, undefined, 'the action was never approved')
  t.is(page.listenerCount('dialog'), dialogListeners)
  t.is(await page.$eval('#status', (element) => element.textContent), 'Idle.', 'nothing was clicked')
  // The page itself is fine: the next goal runs on it.
  t.is((await goal(page, [{ operation: 'DONE' }])).status, 'success')
})

test.serial('the page closed during a model request: the run says the page was closed, at once', async (t) => {
  const page = await stuckPage(t)
  let closed = 0
  page.on('close', () => {
    closed = performance.now()
  })
  const result = await goal(page, [
    {
      operation: 'DONE',
      before: () => {
        void page.close()
        // The model keeps the request open; the close alone must end the run.
        return never()
      },
    },
  ])
  const ms = Math.round(performance.now() - closed)
  t.log(`closed during a model request: settled ${ms} ms after the close`)
  t.true(closed > 0)
  t.true(ms < HANG_GUARD_MS)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'The page was closed during the run.')
})

test.serial('the page closed while the run settles after an input: noticed at once, not after the network bound', async (t) => {
  const page = await stuckPage(t)
  let closed = 0
  page.on('close', () => {
    closed = performance.now()
  })
  heard.once('/stuck/hang', () => void page.close())
  const result = await goal(page, [{ operation: 'CLICK', target: 'Load results' }, { operation: 'DONE' }])
  const ms = Math.round(performance.now() - closed)
  t.log(`closed while settling: settled ${ms} ms after the close`)
  t.true(closed > 0)
  // The network bound of settling is 3 s: a close noticed only after it would take that long.
  t.true(ms < 1_000)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'The page was closed during the run.')
  t.is(result.steps, 0)
})

/** A browser of the test's own, so that it can be disconnected or killed. */
async function ownBrowser(t: ExecutionContext): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchChrome()
  const process = browser.process()
  t.teardown(async () => {
    if (browser.connected) await browser.close()
    else process?.kill('SIGKILL')
  })
  const page = await browser.newPage()
  await page.goto(server.url('sites/stuck/index.html'))
  return { browser, page }
}

test.serial('the browser disconnected during a model request: the run says so, at once', async (t) => {
  const { browser, page } = await ownBrowser(t)
  let gone = 0
  browser.on('disconnected', () => {
    gone = performance.now()
  })
  const result = await goal(page, [
    {
      operation: 'DONE',
      before: () => {
        void browser.disconnect()
        return never()
      },
    },
  ])
  const ms = Math.round(performance.now() - gone)
  t.log(`browser disconnected during a model request: settled ${ms} ms after the event`)
  t.true(gone > 0)
  t.true(ms < HANG_GUARD_MS)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'The browser disconnected during the run.')
})

test.serial('the browser killed while the run settles: the run says it disconnected', async (t) => {
  const { browser, page } = await ownBrowser(t)
  let gone = 0
  browser.on('disconnected', () => {
    gone = performance.now()
  })
  heard.once('/stuck/hang', () => browser.process()!.kill('SIGKILL'))
  const result = await goal(page, [{ operation: 'CLICK', target: 'Load results' }, { operation: 'DONE' }])
  const ms = Math.round(performance.now() - gone)
  t.log(`browser killed while settling: settled ${ms} ms after the disconnection`)
  t.true(gone > 0)
  t.true(ms < 1_000)
  t.is(result.status, 'error')
  t.is(result.error!.message, 'The browser disconnected during the run.')
})

test.serial('observing a closed page says it was closed, not a TypeError', async (t) => {
  const page = await stuckPage(t)
  const frame = page.mainFrame()
  const detached = new Promise((resolve) => page.once('framedetached', resolve))
  await page.close()
  await t.throwsAsync(observe(page), { message: /The page was closed, or the browser disconnected/ })
  // A moment later its main frame is detached: that is where reading the first frame's run failed.
  await detached
  t.true(frame.detached)
  await t.throwsAsync(observe(page), { message: /The page was closed, or the browser disconnected/ })
})
