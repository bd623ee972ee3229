import test, { type ExecutionContext } from 'ava'
import { EventEmitter } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MockLanguageModelV4 } from 'ai/test'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { PageGoneError } from '../src/errors.ts'
import type { AgentPage, ExtractResult, GoalResult, Rules } from '../types/index.d.ts'
import { launchChrome } from './helpers/chrome.ts'
import { serveFixtures, stuckRoute, type FixtureServer } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'
import { startRemoteChrome, type RemoteChrome } from './helpers/remote-chrome.ts'
import { runCli, type CliRun } from './helpers/run-cli.ts'
import { textModel as rulesModel } from './fixtures/extract/text-model.ts'

// Remote browsers: a Chrome started as a process of its own with a debugging port (a stand-in for a
// browser pool such as the browserless Docker image), reached only through puppeteer.connect or
// `exec --ws-endpoint`. What works on a launched browser works on it, many pages at once over one
// connection included; and when it goes away mid-run (its processes SIGKILLed, no goodbye on the
// socket) every call resolves at once with an error that says the browser disconnected.
// Serial, so that the latencies logged are not those of a machine busy with the other tests here.

/** A hang guard, not a benchmark: a run still pending this long after the kill counts as hung. */
const HANG_GUARD_MS = 3_000
/** How long a test waits for a page or a model to reach the point where the browser is killed. */
const SIGNAL_BOUND_MS = 15_000

const SCRIPTED_MODEL = fileURLToPath(new URL('./helpers/goal-scripted-model.ts', import.meta.url))

let server: FixtureServer
/** One remote browser for the tests that leave it running; the tests that kill one start their own. */
let shared: RemoteChrome
// The stuck page tells the server when it is stuck (`/stuck/spinning`, `/stuck/hang`).
const heard = new EventEmitter()

test.before(async () => {
  server = await serveFixtures({
    routes: [stuckRoute(heard)],
  })
  shared = await startRemoteChrome()
})
test.after.always(async () => {
  await shared?.close()
  await server?.close()
})

// ---------------------------------------------------------------- helpers

/** A connection of the test's own to a remote browser, dropped when the test ends. */
async function connect(t: ExecutionContext, chrome: RemoteChrome): Promise<Browser> {
  const browser = await puppeteer.connect({ browserWSEndpoint: chrome.wsEndpoint })
  t.teardown(() => browser.disconnect().catch(() => {}))
  return browser
}

/** A remote browser of the test's own, to be killed mid-run; closed (and its profile removed) when the test ends. */
async function killable(t: ExecutionContext): Promise<{ chrome: RemoteChrome; browser: Browser }> {
  const chrome = await startRemoteChrome()
  t.teardown(() => chrome.close())
  return { chrome, browser: await connect(t, chrome) }
}

/** Rejects with `what` when `promise` has not settled within `ms`: a bound on a signal, not a sleep. */
async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function never(): Promise<never> {
  return new Promise<never>(() => {})
}

/** Resolves after `count` calls of the returned function. */
function countdown(count: number): { tick: () => void; done: Promise<void> } {
  let left = count
  let resolve!: () => void
  const done = new Promise<void>((r) => (resolve = r))
  return {
    tick: () => {
      left -= 1
      if (left === 0) resolve()
    },
    done,
  }
}

/** Resolves after the server heard `path` `count` times (from any page). */
function hearing(path: string, count: number): Promise<void> {
  const { tick, done } = countdown(count)
  heard.on(path, tick)
  return done.finally(() => heard.off(path, tick))
}

/** A run in flight, with the moment it settled. */
interface Timed<T> {
  promise: Promise<T>
  settledAt: () => number | undefined
}

function timed<T>(promise: Promise<T>): Timed<T> {
  let at: number | undefined
  const settled = promise.finally(() => (at = performance.now()))
  return { promise: settled, settledAt: () => at }
}

/** The goal options of these tests: a scripted decision model, no checklist, no evaluator call unless asked. */
function goalOptions(steps: ScriptStep[], text = 'unused') {
  const scripted = scriptedModel(steps)
  return { scripted, options: { decisions: scripted.model, text: textModel(text), evaluator: evaluatorModel(0.95), checklist: false } }
}

/** A text model that says when it is asked, then never answers. */
function silentTextModel(asked: () => void): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: () => {
      asked()
      return never()
    },
  })
}

/** A page in a browser context of its own (as a pool gives each job), closed with its context when the test ends. */
async function isolatedPage(t: ExecutionContext, browser: Browser): Promise<Page> {
  const context = await browser.createBrowserContext()
  t.teardown(() => context.close().catch(() => {}))
  return context.newPage()
}

// ---------------------------------------------------------------- works as on a launched browser

const COMMENTS_RULES: Rules = {
  title: { selector: '#title', attr: 'text' },
  comments: { selectorAll: '#comments li', attr: 'text' },
}

/** A goal, an extraction with rules and one whose rules a model writes, on the news site; what they gave, in comparable form. */
async function newsScenario(page: Page) {
  const agentPage = agent(page)
  await agentPage.goto(server.url('sites/news/index.html'))
  const { options } = goalOptions([{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }])
  const goal = await agentPage.goal('Open the comments of the first story.', options)
  const byRules = await agentPage.extract(COMMENTS_RULES)
  const byInstruction = await agentPage.extract('the story title and its comments', { text: rulesModel({ rules: COMMENTS_RULES }) })
  return {
    goal: {
      status: goal.status,
      steps: goal.steps,
      decisions: goal.decisions,
      error: goal.error?.message,
      failure: goal.failure,
      trace: goal.trace.map(({ operation, targetName, stale, pageChanged }) => ({ operation, targetName, stale, pageChanged })),
      accuracy: (await goal.profiling()).accuracy,
    },
    url: page.url(),
    byRules: { status: byRules.status, data: byRules.data, error: byRules.error?.message },
    byInstruction: { status: byInstruction.status, data: byInstruction.data, error: byInstruction.error?.message },
  }
}

test.serial('agent(page) on a page from puppeteer.connect: a goal and extractions give what they give on a launched browser', async (t) => {
  const remote = await connect(t, shared)
  t.is(remote.process(), null, 'connected, not launched')
  const launched = await launchChrome()
  t.teardown(() => launched.close())

  const remotePage = await remote.newPage()
  t.teardown(() => remotePage.close().catch(() => {}))
  const onRemote = await newsScenario(remotePage)
  const onLaunched = await newsScenario(await launched.newPage())

  t.deepEqual(onRemote, onLaunched)
  t.like(onRemote.goal, { status: 'success', steps: 1, decisions: 2, error: undefined, failure: undefined, accuracy: { passed: true, probability: 0.95 } })
  t.deepEqual(
    onRemote.goal.trace.map((entry) => entry.operation),
    ['CLICK', 'DONE'],
  )
  t.is(onRemote.url, server.url('sites/news/comments.html?story=1'))
  const comments = { title: 'Comments on "Chrome ships a faster JavaScript engine"', comments: ['Great read.', 'Benchmarks or it did not happen.'] }
  t.deepEqual(onRemote.byRules, { status: 'success', data: comments, error: undefined })
  t.deepEqual(onRemote.byInstruction, { status: 'success', data: comments, error: undefined })
})

// ---------------------------------------------------------------- many pages at once

const BOOKS = ['Dune', 'Dune Messiah', 'Children of Dune', 'Emma', 'Moby Dick']
// Eight searches, each with its own heading and its own list: a result read from another page shows.
const QUERIES = ['dune', 'messiah', 'children', 'emma', 'moby', 'dick', 'of', 'em']
const RESULTS_RULES: Rules = { heading: { selector: '#heading', attr: 'text' }, books: { selectorAll: '#results li', attr: 'text' } }

/** Types `query` into the search site, submits, then extracts the results; returns what the page and the model saw. */
async function search(page: Page, query: string) {
  const agentPage = agent(page)
  await agentPage.goto(server.url('sites/search/index.html'))
  const { scripted, options } = goalOptions(
    [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
    query,
  )
  const goal = await agentPage.goal(`Search for ${query}.`, options)
  const extracted = await agentPage.extract(RESULTS_RULES)
  return { query, goal, extracted, url: page.url(), seen: scripted.seen }
}

for (const contexts of [false, true]) {
  const where = contexts ? 'each in a browser context of its own' : 'all in the default context'
  test.serial(`8 pages on one remote browser, ${where}: 8 goals at once over one connection, each with its own result, and no page left after`, async (t) => {
    const remote = await connect(t, shared)
    const pagesBefore = (await remote.pages()).length
    const contextsBefore = remote.browserContexts().length
    const pages = await Promise.all(
      QUERIES.map(async () => (contexts ? (await remote.createBrowserContext()).newPage() : remote.newPage())),
    )
    const started = performance.now()
    const runs = await Promise.all(QUERIES.map((query, index) => search(pages[index]!, query)))
    t.log(`8 goals and 8 extractions at once, ${where}: ${Math.round(performance.now() - started)} ms`)

    for (const { query, goal, extracted, url, seen } of runs) {
      const books = BOOKS.filter((book) => book.toLowerCase().includes(query))
      t.is(goal.error, undefined, query)
      t.like(goal, { status: 'success', steps: 2 }, query)
      t.is(url, server.url(`sites/search/results.html?q=${query}`))
      t.deepEqual(extracted.data, { heading: `Results for "${query}"`, books }, query)
      // The model saw this page and only this one: the search form, then its own results.
      t.is(seen.length, 3, query)
      t.is(seen[0]!.page.url, server.url('sites/search/index.html'))
      t.like(seen[1]!.recent[0], { operation: 'TYPE_TEXT', text: query, outcome: 'page_changed' })
      t.is(seen[2]!.page.url, url)
      for (const other of QUERIES) t.is(seen[2]!.page.text.includes(`Results for "${other}"`), other === query, `${query}: ${other}`)
    }

    await Promise.all(pages.map((page) => (contexts ? page.browserContext().close() : page.close())))
    t.is((await remote.pages()).length, pagesBefore, 'every page of the run is closed')
    t.is(remote.browserContexts().length, contextsBefore, 'every context of the run is closed')
    t.true(shared.running)
  })
}

// ---------------------------------------------------------------- the remote browser going away

function checkGone(t: ExecutionContext, result: GoalResult | ExtractResult, what: string): void {
  t.is(result.status, 'error', what)
  t.true(result.error instanceof PageGoneError, `${what}: ${result.error?.name}: ${result.error?.message}`)
  t.is(result.error?.message, 'The browser disconnected during the run.', what)
  if ('trace' in result) t.is(result.failure, 'page_gone', what)
}

/** Kills the remote browser; resolves every run's latency from the kill and from Puppeteer's 'disconnected'. */
async function killDuring(
  t: ExecutionContext,
  chrome: RemoteChrome,
  browser: Browser,
  runs: Record<string, Timed<GoalResult | ExtractResult>>,
): Promise<Record<string, GoalResult | ExtractResult>> {
  let disconnectedAt: number | undefined
  browser.once('disconnected', () => (disconnectedAt = performance.now()))
  for (const [name, run] of Object.entries(runs)) t.is(run.settledAt(), undefined, `${name} is still in flight when the browser is killed`)
  const killedAt = performance.now()
  void chrome.kill()
  const results = await bounded(
    Promise.all(Object.values(runs).map((run) => run.promise)),
    HANG_GUARD_MS,
    'every run resolves after the remote browser was killed',
  )
  t.true(disconnectedAt !== undefined, "Puppeteer emitted 'disconnected'")
  const latencies = Object.entries(runs).map(([name, run]) => {
    const fromKill = Math.round(run.settledAt()! - killedAt)
    const fromEvent = Math.round(run.settledAt()! - disconnectedAt!)
    t.true(fromKill < HANG_GUARD_MS, `${name}: ${fromKill} ms`)
    return `${name} ${fromKill} ms (${fromEvent} ms after 'disconnected')`
  })
  t.log(`kill → 'disconnected' ${Math.round(disconnectedAt! - killedAt)} ms; kill → resolved: ${latencies.join(', ')}`)
  return Object.fromEntries(Object.keys(runs).map((name, index) => [name, results[index]!]))
}

test.serial('the remote browser killed while goals wait on a slow model: every goal and an extraction resolve page_gone at once', async (t) => {
  const { chrome, browser } = await killable(t)
  const goals = 4
  const asked = countdown(goals + 1)
  const runs: Record<string, Timed<GoalResult | ExtractResult>> = {}
  for (let index = 0; index < goals; index++) {
    const page = agent(await isolatedPage(t, browser))
    await page.goto(server.url('sites/news/index.html'))
    const { options } = goalOptions([
      {
        operation: 'DONE',
        before: () => {
          asked.tick()
          // The model keeps the request open: only the disconnection can end the run.
          return never()
        },
      },
    ])
    runs[`goal ${index + 1}`] = timed(page.goal('Open the comments of the first story.', options))
  }
  const page = agent(await isolatedPage(t, browser))
  await page.goto(server.url('sites/news/index.html'))
  runs.extraction = timed(page.extract('the story titles', { text: silentTextModel(asked.tick) }))
  await bounded(asked.done, SIGNAL_BOUND_MS, 'every run reaches its model request')

  const results = await killDuring(t, chrome, browser, runs)
  for (const [name, result] of Object.entries(results)) checkGone(t, result, name)
  t.false(browser.connected)
})

test.serial('the remote browser killed while goals act and settle and an extraction reads: every call resolves page_gone at once', async (t) => {
  const { chrome, browser } = await killable(t)
  // One extraction reads a page whose main thread spins; one goal clicks a button that spins its
  // page's main thread, so its action never completes; two goals settle after a click, waiting on a
  // request the server never answers. Each page has its own context, so a spinning page holds no
  // other. Settling gives up on the request after 3 s: the settling goals start last, and the browser
  // is killed as soon as both are waiting.
  const pages = await Promise.all(
    [0, 1, 2, 3].map(async () => {
      const page = agent(await isolatedPage(t, browser))
      await page.goto(server.url('sites/stuck/index.html'))
      return page
    }),
  )
  const [reading, acting, ...settlingPages] = pages as [AgentPage, AgentPage, AgentPage, AgentPage]
  const runs: Record<string, Timed<GoalResult | ExtractResult>> = {}

  const readerSpins = hearing('/stuck/spinning', 1)
  // Clicked from a timer, so that this evaluate returns before the loop starts.
  await reading.evaluate(() => void setTimeout(() => document.getElementById('spin')!.click()))
  await bounded(readerSpins, SIGNAL_BOUND_MS, 'the page to extract from spins')
  runs.extraction = timed(reading.extract({ status: { selector: '#status', attr: 'text' } }))

  const actingSpins = hearing('/stuck/spinning', 1)
  runs['acting goal'] = timed(acting.goal('Spin the page.', goalOptions([{ operation: 'CLICK', target: 'Spin forever' }, { operation: 'DONE' }]).options))
  await bounded(actingSpins, SIGNAL_BOUND_MS, 'the acting goal clicks and its page spins')

  const settling = hearing('/stuck/hang', 2)
  settlingPages.forEach((page, index) => {
    const { options } = goalOptions([{ operation: 'CLICK', target: 'Load results' }, { operation: 'DONE' }])
    runs[`settling goal ${index + 1}`] = timed(page.goal('Load the results.', options))
  })
  await bounded(settling, SIGNAL_BOUND_MS, 'both settling goals click and wait on the request')

  const results = await killDuring(t, chrome, browser, runs)
  for (const [name, result] of Object.entries(results)) checkGone(t, result, name)
  // The settling goals clicked; the run ended before the click was counted as a step.
  for (const name of ['settling goal 1', 'settling goal 2', 'acting goal']) t.is((results[name] as GoalResult).steps, 0, name)
})

// ---------------------------------------------------------------- the CLI against a remote browser



/** Writes an ESM exec script to a directory of the test's own (removed after) and returns its path. */
function script(t: ExecutionContext, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'remote-exec-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'script.mjs')
  writeFileSync(file, source)
  return file
}

// The script imports the scripted decision model from the test helpers (Node strips their types) and
// this package by name, as a user's script does.
const GOAL_SCRIPT = `
import agent from 'puppeteer-agent'
import { evaluatorModel, scriptedModel, textModel } from ${JSON.stringify(SCRIPTED_MODEL)}

export default async ({ page, browser, browserless, argv }) => {
  agent(page)
  await browserless.goto(page, { url: argv.url })
  const { model } = scriptedModel([{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }])
  const goal = await page.goal('Open the comments of the first story.', { decisions: model, text: textModel('unused'), evaluator: evaluatorModel(0.95), checklist: false })
  if (goal.status === 'error') throw goal.error
  const extracted = await page.extract({ title: { selector: '#title', attr: 'text' } })
  if (extracted.status === 'error') throw extracted.error
  return { launched: browser.process() !== null, status: goal.status, steps: goal.steps, url: page.url(), data: extracted.data }
}
`

test.serial('exec --ws-endpoint runs a goal and an extraction on the separately started Chrome, and leaves it running', async (t) => {
  const remote = await connect(t, shared)
  const pagesBefore = (await remote.pages()).length
  const url = server.url('sites/news/index.html')
  const run = await runCli(['exec', script(t, GOAL_SCRIPT), `--ws-endpoint=${shared.wsEndpoint}`, `--url=${url}`])
  t.is(run.code, 0, run.stderr)
  t.deepEqual(JSON.parse(run.stdout), {
    launched: false,
    status: 'success',
    steps: 1,
    url: server.url('sites/news/comments.html?story=1'),
    data: { title: 'Comments on "Chrome ships a faster JavaScript engine"' },
  })
  t.true(shared.running, 'the remote Chrome still runs')
  t.true(remote.connected, 'and another connection to it was not dropped')
  t.is((await remote.pages()).length, pagesBefore, "the CLI's page was closed")
})

/** Runs `source` with exec against a Chrome of the test's own, killed once the script writes "ready" to stderr. */
async function execKilled(t: ExecutionContext, source: string): Promise<CliRun & { ms: number }> {
  const chrome = await startRemoteChrome()
  t.teardown(() => chrome.close())
  let killedAt: number | undefined
  const run = await bounded(
    runCli(['exec', script(t, source), `--ws-endpoint=${chrome.wsEndpoint}`, `--url=${server.url('sites/news/index.html')}`], {
      onStderr: (stderr) => {
        if (killedAt === undefined && stderr.includes('ready\n')) {
          killedAt = performance.now()
          void chrome.kill()
        }
      },
    }),
    SIGNAL_BOUND_MS + HANG_GUARD_MS,
    'the CLI exits',
  )
  t.true(killedAt !== undefined, `the script got ready: ${run.stderr}`)
  const ms = Math.round(run.exitedAt - killedAt!)
  t.true(ms < HANG_GUARD_MS, `${ms} ms`)
  return { ...run, ms }
}

test.serial('the remote browser killed during an exec goal: the CLI exits 1 at once, saying the browser disconnected', async (t) => {
  const run = await execKilled(
    t,
    `
import agent from 'puppeteer-agent'
import { scriptedModel } from ${JSON.stringify(SCRIPTED_MODEL)}

export default async ({ page, browserless, argv }) => {
  agent(page)
  await browserless.goto(page, { url: argv.url })
  const ready = () => process.stderr.write('ready\\n')
  const { model } = scriptedModel([{ operation: 'DONE', before: () => { ready(); return new Promise(() => {}) } }])
  const goal = await page.goal('Open the comments of the first story.', { decisions: model, checklist: false })
  if (goal.status === 'error') throw goal.error
  return goal.status
}
`,
  )
  t.log(`exec goal: the CLI exited ${run.ms} ms after the kill`)
  t.is(run.code, 1, run.stderr)
  t.is(run.stdout, '')
  t.regex(run.stderr, /^PageGoneError: The browser disconnected during the run\.$/m)
  t.regex(run.stderr, /^puppeteer-agent: The remote browser at ws:\/\/127\.0\.0\.1:\d+\/\S+ disconnected during the script/m)
})

// Without a goal the script meets Puppeteer's own errors, which do not say the browser went away; and
// a script awaiting an event only the browser could send was left with nothing to keep Node running,
// which ended with Node's "unsettled top-level await" warning and exit code 13.
const WHILE_WAITING = [
  {
    title: 'waits for a selector',
    body: `await page.waitForSelector('#never-there', { timeout: 0 })`,
    error: /^Waiting for selector `#never-there` failed\n/m,
  },
  {
    title: 'awaits an event only the browser could send',
    body: `await new Promise((resolve) => page.once('dialog', resolve))`,
    error: undefined,
  },
]

for (const { title, body, error } of WHILE_WAITING) {
  test.serial(`the remote browser killed while an exec script ${title}: the CLI exits 1 at once, naming the disconnected browser`, async (t) => {
    const run = await execKilled(t, `export default async ({ page, browserless, argv }) => {\n  await browserless.goto(page, { url: argv.url })\n  process.stderr.write('ready\\n')\n  ${body}\n}\n`)
    t.log(`exec script that ${title}: the CLI exited ${run.ms} ms after the kill`)
    t.is(run.code, 1, run.stderr)
    if (error) t.regex(run.stderr, error)
    t.regex(
      run.stderr,
      /^(puppeteer-agent: )?The remote browser at ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\/\S+ disconnected during the script: it was closed or crashed, or the connection to it dropped\./m,
    )
    if (!error) t.regex(run.stderr, /The script was still waiting, and nothing is left that could answer it\.$/m)
    t.notRegex(run.stderr, /unsettled top-level await/)
  })
}
