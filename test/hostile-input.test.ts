import test from 'ava'
import type { ElementHandle, Page } from 'puppeteer-core'
import agent, { BlockedError } from '../src/index.ts'
import { isolatedWorld } from '../src/browser/isolated-world.ts'
import { callHandleInFrame } from '../src/browser/page-script.ts'
import { observe } from '../src/collector/observe.ts'
import type { Snapshot } from '../src/collector/observation.ts'
import { act } from '../src/executor/act.ts'
import type { GoalResult } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { observedElement } from './helpers/observations.ts'
import { scriptedModel, textModel, type ScriptStep, type SeenRequest } from './helpers/goal-scripted-model.ts'

// Hostile pages that try to make an input land elsewhere than on the target the model chose. Each page
// runs RUNS times: no input may ever reach the wrong element, and every run must end either with a stale
// decision (found before the press) or with input_redirected (found during it), never as a success.

const RUNS = 20
const chrome = useChrome(test)
const servers = useFixtureServers(test)

type Clicks = Record<string, number>

const clicksOf = (page: Page) => page.evaluate(() => (window as unknown as { clicks: Clicks }).clicks)

/** Clicks `name` while the page offers it; BLOCKED once it does not. */
function clickWhileOffered(name: string, operation: 'CLICK' | 'SUBMIT' = 'CLICK', before?: ScriptStep['before']) {
  return (request: SeenRequest, index: number): ScriptStep =>
    request.elements.some((element) => element.name === name)
      ? { operation, target: name, ...(index === 0 && before ? { before } : {}) }
      : { operation: 'BLOCKED' }
}

function goal(page: Page, steps: Parameters<typeof scriptedModel>[0]): Promise<GoalResult> {
  return agent(page).goal('Use the page.', { decisions: scriptedModel(steps).model, text: textModel('unused') })
}

/** How a run that must not succeed ended: `stale: <reason>` for a discarded decision, or the stop reason. */
function ending(result: GoalResult): string[] {
  const endings = result.trace.filter((entry) => entry.stale).map((entry) => `stale: ${entry.staleReason}`)
  if (result.error instanceof BlockedError) endings.push(result.error.reason)
  return endings
}

/** A handle in the isolated world, where the collector's handles live. */
async function isolatedHandle(page: Page, selector: string): Promise<ElementHandle<Element>> {
  const handle = await isolatedWorld(page.mainFrame()).evaluateHandle((query) => document.querySelector(query), selector)
  return handle.asElement() as ElementHandle<Element>
}

function snapshotOf(handle: ElementHandle<Element>): Snapshot {
  return { observation: {} as Snapshot['observation'], handles: new Map([['e1', handle]]), scrollHandles: new Map(), ready: Promise.resolve(), dispose: async () => {} }
}

async function repeat(t: { log(...values: unknown[]): void }, page: Page, url: string, runOnce: () => Promise<GoalResult>) {
  const totals: Clicks = {}
  const results: GoalResult[] = []
  for (let run = 0; run < RUNS; run++) {
    await page.goto(url)
    // The pointer starts in the corner, away from the target, as it would for a new visitor.
    await page.mouse.move(0, 0)
    results.push(await runOnce())
    for (const [key, count] of Object.entries(await clicksOf(page))) totals[key] = (totals[key] ?? 0) + count
  }
  t.log(totals, results.map((result) => ending(result).join(', ')).slice(0, 2))
  return { totals, results }
}

test('a button swapped for "Delete account" when the pointer arrives: never clicked, the decision is stale', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/hostile/swap-on-move.html'), () => goal(page, clickWhileOffered('Search')))
  t.is(totals.delete, 0)
  t.is(totals.search, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <button#delete> "Delete account"/)
  }
})

test('SUBMIT by click on a submit button swapped when the pointer arrives: nothing is pressed', async (t) => {
  const page = await chrome.page(t)
  let pressed = 0
  for (let run = 0; run < RUNS; run++) {
    await page.goto(servers.site.url('sites/hostile/swap-on-move.html'))
    const handle = await isolatedHandle(page, '#search')
    const outcome = await act({
      page,
      snapshot: snapshotOf(handle),
      decision: { operation: 'SUBMIT', target: 'e1', decisionMs: 0 },
      waitMs: 0,
      checkFreshness: async () => ({ fresh: true, handle }),
    })
    t.regex('stale' in outcome ? outcome.stale : '', /^the browser's hit test found <button#delete> "Delete account"/)
    const clicks = await clicksOf(page)
    pressed += clicks.delete! + clicks.search!
  }
  t.is(pressed, 0)
})

test('a button swapped on the press itself, after the hit test: the press is stopped and the run ends input_redirected', async (t) => {
  const page = await chrome.page(t)
  const { totals, results } = await repeat(t, page, servers.site.url('sites/hostile/swap-on-move.html?when=pointerdown'), () =>
    goal(page, clickWhileOffered('Search')),
  )
  t.is(totals.delete, 0)
  for (const result of results) {
    t.is(result.status, 'error')
    t.deepEqual(ending(result), ['input_redirected'])
    // Chrome sends the rest of the click to the swapped-in button, or to the slot when the pressed node is gone.
    t.regex(result.error!.message, /did not land on its target: the (mousedown|mouseup|click) of the click reached (<div#slot>|<button#delete>) "Delete account", not the target/)
  }
})

test('an almost transparent cross-origin frame slid under the pointer: its button is never clicked', async (t) => {
  const page = await chrome.page(t)
  const frame = encodeURIComponent(servers.other.url('sites/hostile/trap-frame.html'))
  const url = servers.site.url(`sites/hostile/slide-frame.html?frame=${frame}`)
  const { totals, results } = await repeat(t, page, url, async () => {
    await page.waitForFrame((candidate) => candidate.url().includes('trap-frame'))
    return goal(page, clickWhileOffered('Subscribe'))
  })
  t.is(totals.frame, 0)
  t.is(totals.subscribe, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.regex(ending(result)[0] ?? '', /^stale: the browser's hit test found <iframe#trap> at the target's point/)
  }
})

test('elementFromPoint faked by the page cannot make a covered target pass the freshness check', async (t) => {
  const page = await chrome.page(t)
  // After the observation, the page covers "Search" with a transparent "Delete account" layer and makes
  // elementFromPoint claim the button is still on top.
  const cover = () =>
    page.evaluate(() => {
      const target = document.getElementById('search')!
      const box = target.getBoundingClientRect()
      const layer = document.createElement('div')
      layer.style.cssText = `position:fixed;left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px;opacity:0.01;background:#fff`
      layer.addEventListener('click', () => (window as unknown as { clicks: Clicks }).clicks.delete++)
      document.body.append(layer)
      Document.prototype.elementFromPoint = () => target
      document.elementFromPoint = () => target
    })
  const { totals, results } = await repeat(t, page, servers.site.url('sites/hostile/swap-on-move.html?when=never'), () =>
    goal(page, clickWhileOffered('Search', 'CLICK', cover)),
  )
  t.is(totals.delete, 0)
  t.is(totals.search, 0)
  for (const result of results) {
    t.not(result.status, 'success')
    t.is(ending(result)[0], 'stale: covered')
  }
})

test('SELECT on a listbox option swapped when the pointer arrives: the other option is never chosen', async (t) => {
  const page = await chrome.page(t)
  let cancelled = 0
  for (let run = 0; run < RUNS; run++) {
    await page.goto(servers.site.url('sites/hostile/swap-on-move.html'))
    const handle = await isolatedHandle(page, '#plan')
    const element = observedElement('e1', {
      tag: 'div',
      role: 'listbox',
      operations: ['select'],
      options: [
        { id: 'o1', label: 'Basic', value: 'Basic', selected: true },
        { id: 'o2', label: 'Gold', value: 'Gold', selected: false },
      ],
    })
    const outcome = await act({
      page,
      snapshot: snapshotOf(handle),
      decision: { operation: 'SELECT', target: 'e1', option: 'o2', decisionMs: 0 },
      element,
      waitMs: 0,
      checkFreshness: async () => ({ fresh: true, handle }),
    })
    t.like(outcome, { acted: false })
    t.regex('stale' in outcome ? outcome.stale : '', /the browser's hit test found <div> "Cancel subscription"/)
    cancelled += (await clicksOf(page)).cancel!
  }
  t.is(cancelled, 0)
})

test('TYPE_TEXT: focus taken by another field, and activeElement faked, never writes into it', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url('sites/hostile/builtins.html'))
  await page.evaluate(() => {
    const email = document.getElementById('email')!
    const decoy = document.createElement('input')
    decoy.id = 'decoy'
    document.body.append(decoy)
    email.addEventListener('focus', () => decoy.focus())
    Object.defineProperty(Document.prototype, 'activeElement', { get: () => email })
  })
  const snapshot = await observe(page)
  const email = snapshot.observation.elements.find((element) => element.name === 'Email')!
  const outcome = await act({
    page,
    snapshot,
    decision: { operation: 'TYPE_TEXT', target: email.id, decisionMs: 0 },
    element: email,
    text: 'ada@example.com',
    waitMs: 0,
    checkFreshness: (await import('../src/collector/check-freshness.ts')).checkFreshness,
  })
  t.deepEqual(outcome, { acted: false, stale: 'after focus: not focused' })
  t.deepEqual(await page.$$eval('input:not([type=checkbox])', (inputs) => inputs.map((input) => (input as HTMLInputElement).value)), ['', ''])
  await snapshot.dispose()
})

test('a click into a field lands by the focus it gave: focus the page gave the field before the click reached it, or after a press went elsewhere, does not count', async (t) => {
  const page = await chrome.page(t)
  await page.setContent('<input id="field" aria-label="Name"><button id="other">Other</button>')
  const field = await isolatedHandle(page, '#field')
  const focusField = () => page.evaluate(() => document.getElementById('field')!.focus())
  const watched = async (run: () => Promise<unknown>) => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
    const watch = await callHandleInFrame(page.mainFrame(), 'watchInput', field, ['pointerdown', 'mousedown'], false)
    await run()
    const report = await watch.evaluate((armed) => armed.report())
    await watch.evaluate((armed) => armed.dispose())
    return report
  }
  t.like(await watched(() => page.click('#field')), { focused: true, redirected: null })
  // Given while the watch was armed, then the press went to "Other": the click never gave it.
  t.like(await watched(async () => (await focusField(), page.click('#other'))), { focused: false, redirected: { type: 'pointerdown', to: '<button#other> "Other"' } })
  t.like(await watched(async () => (await page.click('#other'), focusField())), { focused: false })
})
