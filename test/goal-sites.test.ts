import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { log } from '../src/base/log.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textDecider, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// page.goal() end to end in real Chrome: the collector, the decision client with a scripted decision
// model, the executor and the loop, on small local sites.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  return page
}

function run(page: Page, goal: string, steps: ScriptStep[], options: Record<string, unknown> = {}) {
  const scripted = scriptedModel(steps)
  // The checklist has its own tests (goal-checklist): here DONE ends a run as the model says.
  const result = agent(page).goal(goal, { decisions: scripted.model, text: textModel('unused'), evaluator: evaluatorModel(0.95), checklist: false, ...options })
  return { scripted, result }
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent)

test('news: opens the first story’s comments, then DONE', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const { scripted, result } = run(page, 'Open the comments of the first story.', [
    { operation: 'CLICK', target: '42 comments' },
    { operation: 'DONE' },
  ])
  const { status, steps, decisions, trace, error, profiling } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 1)
  t.is(decisions, 2)
  t.true(page.url().endsWith('/sites/news/comments.html?story=1'))
  t.is(await text(page, '#title'), 'Comments on "Chrome ships a faster JavaScript engine"')

  const [click, done] = trace
  t.like(click, { request: 1, step: 1, operation: 'CLICK', targetName: '42 comments', stale: false, pageChanged: true, confidence: 0.9, targetConfidence: 0.9 })
  t.is(click!.url, servers.site.url('sites/news/index.html'))
  t.regex(click!.target!, /^e\d+$/)
  t.is(click!.probabilities!.CLICK, 0.9)
  t.is(click!.targetProbabilities![click!.target!], 0.9)
  t.is(typeof click!.decisionMs, 'number')
  t.is(typeof click!.actMs, 'number')
  t.is(typeof click!.observeMs, 'number')
  t.like(done, { request: 2, step: 1, operation: 'DONE', stale: false, pageChanged: false })
  t.is(done!.target, undefined)
  // The second request was made on the comments page and told what the click did.
  t.regex(scripted.seen[1]!.page.title, /Comments/)
  t.like(scripted.seen[1]!.recent[0], { operation: 'CLICK', target_name: '42 comments', outcome: 'page_changed' })

  // Two decision requests, then the evaluator's one.
  const profile = await profiling()
  t.deepEqual(profile.accuracy, { passed: true, probability: 0.95 })
  t.is(profile.cost.calls, 3)
  t.is(profile, await profiling())
  const json = JSON.parse(JSON.stringify(await result))
  t.deepEqual(Object.keys(json), ['status', 'steps', 'decisions', 'trace', 'checklist', 'verified'])
})

test('decisions: false: the text model takes the decisions; the trace has no probabilities', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const { status, steps, trace, error } = await agent(page).goal('Open the comments of the first story.', {
    decisions: false,
    text: textDecider([{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }]),
    evaluator: evaluatorModel(0.9),
    checklist: false,
  })
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 1)
  t.true(page.url().endsWith('/sites/news/comments.html?story=1'))
  t.like(trace[0], { operation: 'CLICK', targetName: '42 comments', risk: 0, pageChanged: true })
  for (const key of ['confidence', 'probabilities', 'targetConfidence', 'targetProbabilities']) t.false(key in trace[0]!, key)
})

test('search: TYPE_TEXT writes the query, SUBMIT sends the form, then DONE', async (t) => {
  const page = await open(t, 'sites/search/index.html')
  const { scripted, result } = run(
    page,
    'Search for dune.',
    [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
    { text: textModel('dune') },
  )
  const { status, steps, trace, profiling, error } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 2)
  t.is(await text(page, '#heading'), 'Results for "dune"')
  t.deepEqual(await page.$$eval('#results li', (items) => items.map((item) => item.textContent)), ['Dune', 'Dune Messiah', 'Children of Dune'])
  t.like(trace[0], { operation: 'TYPE_TEXT', text: 'dune', pageChanged: true })
  t.is(typeof trace[0]!.textMs, 'number')
  t.like(trace[1], { operation: 'SUBMIT', pageChanged: true })
  t.like(scripted.seen[1]!.recent[0], { operation: 'TYPE_TEXT', text: 'dune', outcome: 'page_changed' })
  // Three decisions, one text, one evaluation: exactly one request per decision.
  t.is((await profiling()).cost.calls, 5)
})

test('form: SELECT an option, CLICK a radio and a checkbox, submit', async (t) => {
  const page = await open(t, 'sites/form/index.html')
  const { result } = run(page, 'Order a large thick pizza with extra cheese.', [
    { operation: 'SELECT', target: /Size/, option: 'Large' },
    { operation: 'CLICK', target: /Thick/ },
    { operation: 'CLICK', target: /Extra cheese/ },
    { operation: 'CLICK', target: 'Place order' },
    { operation: 'DONE' },
  ])
  const { status, steps, trace, error } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 4)
  t.like(trace[0], { operation: 'SELECT', option: 'Large', pageChanged: true })
  t.is(await text(page, '#summary'), 'Ordered: l thick crust with extra cheese')
})

test('consent: the banner in a cross-origin iframe is observed and clicked', async (t) => {
  const page = await open(t, `sites/consent/index.html?frame=${encodeURIComponent(servers.other.origin)}`)
  await page.waitForFrame((frame) => frame.url().includes('/banner.html'))
  await page.waitForFunction(() => (document.getElementById('consent') as HTMLIFrameElement | null)?.contentWindow !== null)
  const { result } = run(page, 'Accept the cookies and show the recipe.', [{ operation: 'CLICK', target: 'Accept all' }, { operation: 'DONE' }])
  const { status, trace, error } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.like(trace[0], { operation: 'CLICK', targetName: 'Accept all', pageChanged: true })
  t.is(await text(page, '#status'), 'Cookies accepted. Today: lemon risotto.')
})

test('shadow DOM: types into and clicks controls inside an open shadow root', async (t) => {
  const page = await open(t, 'sites/shadow/index.html')
  const { result } = run(
    page,
    'Subscribe a@b.example to the newsletter.',
    [{ operation: 'TYPE_TEXT', target: /Email/ }, { operation: 'CLICK', target: 'Join' }, { operation: 'DONE' }],
    { text: textModel('a@b.example') },
  )
  const { status, error } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(await page.$eval('signup-widget', (host) => host.shadowRoot!.getElementById('note')!.textContent), 'Subscribed a@b.example.')
})

test('SPA: a pushState route change without a load event is settled and seen', async (t) => {
  const page = await open(t, 'sites/spa/index.html')
  const { scripted, result } = run(page, 'Open the About page.', [{ operation: 'CLICK', target: 'About us' }, { operation: 'DONE' }])
  const { status, trace } = await result
  t.is(status, 'success')
  t.true(page.url().endsWith('/sites/spa/about'))
  t.true(trace[0]!.pageChanged)
  t.regex(scripted.seen[1]!.page.text, /A family bakery since 1921/)
})

test('stale: a list re-rendered under the decision is discarded, re-observed and acted on afresh', async (t) => {
  const page = await open(t, 'sites/stale/index.html')
  let rerenders = 0
  const rerender = () => {
    rerenders += 1
    return page.evaluate(() => (window as unknown as { rerender(): void }).rerender())
  }
  const { scripted, result } = run(page, 'Buy bananas.', [
    { operation: 'CLICK', target: 'Buy Bananas', before: rerender },
    { operation: 'CLICK', target: 'Buy Bananas' },
    { operation: 'DONE' },
  ])
  const { status, steps, decisions, trace } = await result
  t.is(rerenders, 1)
  t.is(status, 'success')
  t.is(steps, 1)
  t.is(decisions, 3)
  t.like(trace[0], { request: 1, step: 0, operation: 'CLICK', stale: true, pageChanged: false })
  t.truthy(trace[0]!.staleReason)
  t.like(trace[1], { request: 2, step: 1, operation: 'CLICK', stale: false, pageChanged: true })
  t.like(scripted.seen[1]!.recent[0], { operation: 'CLICK', target_name: 'Buy Bananas', outcome: 'stale_discarded' })
  t.is(await text(page, '#picked'), 'Picked Bananas.')
})

test('alert(): the dialog is accepted, recorded in the trace and told to the next request', async (t) => {
  const page = await open(t, 'sites/alert/index.html')
  const { scripted, result } = run(page, 'Reveal the coupon.', [{ operation: 'CLICK', target: 'Reveal coupon' }, { operation: 'DONE' }])
  const { status, trace } = await result
  t.is(status, 'success')
  t.deepEqual(trace[0]!.dialogs, [{ type: 'alert', message: 'Your coupon is SAVE10', accepted: true }])
  t.like(scripted.seen[1]!.recent[0], { outcome: 'dialog' })
  t.regex(scripted.seen[1]!.recent[0]!.detail!, /alert "Your coupon is SAVE10" was accepted/)
  t.is(await text(page, '#coupon'), 'Coupon: SAVE10')
  t.is(page.listenerCount('dialog'), 0)
})

test('target=_blank: the popup is reported in the trace, never followed, and stops the run', async (t) => {
  const page = await open(t, 'sites/popup/index.html')
  const { scripted, result } = run(page, 'Visit the partner.', [{ operation: 'CLICK', target: 'Visit our partner' }, { operation: 'DONE' }])
  const { status, trace, error, steps } = await result
  t.is(status, 'error')
  t.true(error instanceof agent.BlockedError)
  t.is((error as InstanceType<typeof agent.BlockedError>).reason, 'unsupported_surface')
  t.regex(error!.message, /opened a new tab \(.*partner\.html\); the agent works in one tab/)
  t.is(steps, 1)
  t.deepEqual(trace[0]!.popups, [servers.site.url('sites/popup/partner.html')])
  t.true(page.url().endsWith('/sites/popup/index.html'))
  // The popup ends the run before another request: the model never claims a visit that did not happen.
  t.is(scripted.seen.length, 1)
})

test('scrolling: SCROLL_DOWN brings a control below the fold into the offer, WAIT pauses', async (t) => {
  const page = await open(t, 'sites/long/index.html')
  const { scripted, result } = run(
    page,
    'Load all chapters.',
    [
      { operation: 'SCROLL_DOWN', target: 'page' },
      { operation: 'WAIT' },
      { operation: 'CLICK', target: 'Load more chapters' },
      { operation: 'DONE' },
    ],
    { waitMs: 0 },
  )
  const { status, steps, trace, error } = await result
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 3)
  t.false(scripted.seen[0]!.elements.some((element) => element.name === 'Load more chapters'))
  t.like(trace[0], { operation: 'SCROLL_DOWN', target: 'page', pageChanged: true })
  t.like(trace[1], { operation: 'WAIT', pageChanged: false })
  t.is(await text(page, '#status'), 'All five chapters shown.')
})

test.serial('debug: one logfmt line per step, then the goal line', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const lines: string[] = []
  const enabled = log.enabled
  const write = log.log
  log.enabled = true
  log.log = (...args: unknown[]) => void lines.push(args.map(String).join(' '))
  t.teardown(() => {
    log.enabled = enabled
    log.log = write
  })
  const { result } = run(page, 'Open the comments of the first story.', [{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }])
  t.is((await result).status, 'success')
  const steps = lines.filter((line) => line.includes('step request='))
  t.is(steps.length, 2)
  t.regex(steps[0]!, /request=1 step=1 operation=CLICK target=e\d+ .*pageChanged=true ms=\d+/)
  t.regex(steps[1]!, /request=2 step=1 operation=DONE/)
  t.true(lines.some((line) => line.includes('goal status=success')))
})
