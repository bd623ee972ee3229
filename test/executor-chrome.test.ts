import test from 'ava'
import type { ElementHandle, Page } from 'puppeteer-core'
import type { Observation, ObservedElement, Snapshot } from '../src/collector/observation.ts'
import type { Decision } from '../src/decision/decision.ts'
import { frameSession, isolatedWorld } from '../src/browser/isolated-world.ts'
import { observe } from '../src/collector/observe.ts'
import { act, type CheckFreshness } from '../src/executor/act.ts'
import { watchActivity } from '../src/executor/page-activity.ts'
import { perform } from '../src/executor/perform.ts'
import { watchPageEvents } from '../src/executor/page-events.ts'
import { settle, SETTLE_BOUNDS } from '../src/executor/settle.ts'
import { useChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { observedElement } from './helpers/observations.ts'

// The executor in real Chrome. The freshness guard here is a stand-in that only asks whether the node
// is still in the document: the collector's guard has its own tests.

const chrome = useChrome(test)
let server: FixtureServer

test.before(async () => {
  server = await serveFixtures({
    routes: [
      (req, res) => {
        if (req.url !== '/slow-price') return false
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('42'), 150)
        return true
      },
      (req) => req.url === '/hang',
    ],
  })
})
test.after.always(() => server?.close())

const connected: CheckFreshness = async (snapshot, id) => {
  const handle = snapshot.handles.get(id)
  const alive = handle ? await handle.evaluate((element) => element.isConnected).catch(() => false) : false
  return alive && handle ? { fresh: true, handle } : { fresh: false, reason: 'the node is no longer in the document' }
}

async function snapshotOf(page: Page, selectors: Record<string, string>, scroll: Record<string, string> = {}): Promise<Snapshot> {
  // In the isolated world, where the collector's handles live.
  const grab = async (selector: string) => {
    const handle = (await isolatedWorld(page.mainFrame()).evaluateHandle((query) => document.querySelector(query), selector)).asElement()
    if (!handle) throw new Error(`fixture has no ${selector}`)
    return handle as ElementHandle<Element>
  }
  const handles = new Map<string, ElementHandle<Element>>()
  for (const [id, selector] of Object.entries(selectors)) handles.set(id, await grab(selector))
  const scrollHandles = new Map<string, ElementHandle<Element>>()
  for (const [id, selector] of Object.entries(scroll)) scrollHandles.set(id, await grab(selector))
  const observation = { url: page.url(), elements: [], scroll: [], signature: '' } as unknown as Observation
  return { observation, handles, scrollHandles, ready: Promise.resolve(), dispose: async () => {} }
}

function decide(operation: Decision['operation'], target?: string, option?: string): Decision {
  return { operation, target, option, decisionMs: 0 }
}

/** act, then settle, as the goal loop does. */
async function run(page: Page, snapshot: Snapshot, decision: Decision, more: { element?: ObservedElement; text?: string; checkFreshness?: CheckFreshness; signal?: AbortSignal } = {}) {
  const activity = watchActivity(page)
  try {
    const outcome = await act({
      page,
      snapshot,
      decision,
      element: more.element,
      text: more.text,
      waitMs: 0,
      signal: more.signal,
      checkFreshness: more.checkFreshness ?? connected,
    })
    if (outcome.acted) await settle(page, activity, outcome.frames, SETTLE_BOUNDS, outcome.inputAt, outcome.target)
    return outcome
  } finally {
    activity.dispose()
  }
}

const text = (page: Page, selector = '#out') => page.$eval(selector, (element) => element.textContent)

async function open(t: Parameters<typeof chrome.page>[0], path = 'sites/executor/index.html'): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(server.url(path))
  return page
}

test('CLICK settles until the request it started has answered and the result is rendered', async (t) => {
  const page = await open(t)
  const outcome = await run(page, await snapshotOf(page, { e1: '#fetch' }), decide('CLICK', 'e1'))
  t.true(outcome.acted)
  t.is(await text(page), 'price 42')
})

test('CLICK settles until a render scheduled by a timer has happened', async (t) => {
  const page = await open(t)
  await run(page, await snapshotOf(page, { e1: '#later' }), decide('CLICK', 'e1'))
  t.is(await text(page), 'rendered later')
})

test('CLICK that navigates settles on the new document', async (t) => {
  const page = await open(t)
  await run(page, await snapshotOf(page, { e1: '#go' }), decide('CLICK', 'e1'))
  t.true(page.url().endsWith('/sites/executor/next.html'))
  t.is(await text(page), 'arrived')
})

test('a stale target is not acted on', async (t) => {
  const page = await open(t)
  const snapshot = await snapshotOf(page, { e1: '#fetch' })
  await page.$eval('#fetch', (element) => element.remove())
  const outcome = await run(page, snapshot, decide('CLICK', 'e1'))
  t.deepEqual(outcome, { acted: false, stale: 'the node is no longer in the document' })
  t.is(await text(page), 'idle')
})

test('a target hidden between the guard and the click is not clicked where it was', async (t) => {
  const page = await open(t)
  const hideAfterCheck: CheckFreshness = async (snapshot, id) => {
    const fresh = await connected(snapshot, id)
    await page.$eval('#fetch', (element) => ((element as HTMLElement).style.display = 'none'))
    return fresh
  }
  const outcome = await run(page, await snapshotOf(page, { e1: '#fetch' }), decide('CLICK', 'e1'), { checkFreshness: hideAfterCheck })
  t.false(outcome.acted)
  // The point is looked for while the guard runs: either it is found gone, or the browser's hit test finds
  // what is there now.
  t.regex((outcome as { stale: string }).stale, /could not be located for the click|the browser's hit test found <button#later>/)
  t.is(await text(page), 'idle')
})

test('a click waits for its freshness check, which runs while the click is prepared: a check that fails late presses nothing', async (t) => {
  const page = await open(t)
  await page.evaluate(() => {
    ;(window as unknown as { presses: number }).presses = 0
    for (const type of ['pointerdown', 'mousedown', 'click']) document.addEventListener(type, () => (window as unknown as { presses: number }).presses++, true)
  })
  // A slow check: the watch is armed and the point found long before it answers.
  const lateStale: CheckFreshness = async () => {
    await new Promise((resolve) => setTimeout(resolve, 100))
    return { fresh: false, reason: 'name changed' }
  }
  const outcome = await run(page, await snapshotOf(page, { e1: '#fetch' }), decide('CLICK', 'e1'), { checkFreshness: lateStale })
  t.deepEqual(outcome, { acted: false, stale: 'name changed' })
  t.is(await page.evaluate(() => (window as unknown as { presses: number }).presses), 0)
  t.is(await text(page), 'idle')
})

test('a click says when it was delivered, which the wait for the page to settle counts from', async (t) => {
  const page = await open(t)
  const before = performance.now()
  const outcome = await act({ page, snapshot: await snapshotOf(page, { e1: '#fetch' }), decision: decide('CLICK', 'e1'), waitMs: 0, checkFreshness: connected })
  const after = performance.now()
  t.true(outcome.acted)
  const at = (outcome as { inputAt?: number }).inputAt
  t.true(at !== undefined && at > before && at <= after)
})

test('TYPE_TEXT replaces the value of an input as typed text, with input events', async (t) => {
  const page = await open(t)
  const outcome = await run(page, await snapshotOf(page, { e1: '#name' }), decide('TYPE_TEXT', 'e1'), { text: 'Ada' })
  t.true(outcome.acted)
  t.is(await page.$eval('#name', (element) => (element as HTMLInputElement).value), 'Ada')
  t.is(await text(page), 'name Ada')
})

test('TYPE_TEXT replaces the content of an editing host', async (t) => {
  const page = await open(t)
  await run(page, await snapshotOf(page, { e1: '#note' }), decide('TYPE_TEXT', 'e1'), { text: 'final words' })
  t.is(await text(page, '#note'), 'final words')
})

test('settling waits while the list the click made aria-busy loads on a timer, not for the first 20 ms of quiet', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<ul id="list"><li>Episode 1</li></ul><button id="more">Load more</button>
    <script>
      document.querySelector('#more').addEventListener('click', () => {
        const list = document.querySelector('#list')
        list.setAttribute('aria-busy', 'true')
        setTimeout(() => { list.insertAdjacentHTML('beforeend', '<li>Episode 2</li>'); list.removeAttribute('aria-busy') }, 300)
      })
    </script>`)
  // The page was observed for the decision, as in a run: its watch sees the list become busy after that.
  const observed = await observe(page)
  t.teardown(() => observed.dispose())
  const outcome = await run(page, await snapshotOf(page, { e1: '#more' }), decide('CLICK', 'e1'))
  t.true(outcome.acted)
  t.is(await text(page, '#list'), 'Episode 1Episode 2')
})

test('settling waits while the page keeps the clicked button disabled, as a form does while it sends', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<form><input aria-label="Email" value="a@example.org"><button id="send" type="button">Subscribe</button></form><p id="out"></p>
    <script>
      const send = document.querySelector('#send')
      send.addEventListener('click', () => {
        send.disabled = true
        send.textContent = 'Subscribing…'
        setTimeout(() => { document.querySelector('#out').textContent = 'Subscribed'; send.textContent = 'Subscribe'; send.disabled = false }, 300)
      })
    </script>`)
  const observed = await observe(page)
  t.teardown(() => observed.dispose())
  const outcome = await run(page, await snapshotOf(page, { e1: '#send' }), decide('CLICK', 'e1'))
  t.true(outcome.acted)
  t.is(await text(page), 'Subscribed')
})

test('settling waits for the slide a click set moving; a button\'s own small transition does not hold it', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<style>
      .viewport { width: 600px; height: 200px; overflow: hidden }
      .track { display: flex; width: 1800px; height: 200px; transition: transform 300ms linear }
      .track div { width: 600px; height: 200px }
      #fade { transition: background-color 1s linear; background: #eee }
      #fade.on { background: #333 }
    </style>
    <div class="viewport"><div class="track"><div>One</div><div>Two</div><div>Three</div></div></div>
    <button id="next">Next slide</button><button id="fade">Dim</button>
    <script>
      document.querySelector('#next').addEventListener('click', () => { document.querySelector('.track').style.transform = 'translateX(-600px)' })
      document.querySelector('#fade').addEventListener('click', (event) => event.currentTarget.classList.add('on'))
    </script>`)
  const observed = await observe(page)
  t.teardown(() => observed.dispose())
  const running = () => page.evaluate(() => document.getAnimations().filter((animation) => animation.playState === 'running').length)
  t.true((await run(page, await snapshotOf(page, { e1: '#next' }), decide('CLICK', 'e1'))).acted)
  t.is(await running(), 0, 'the slide has arrived')
  t.true((await run(page, await snapshotOf(page, { e1: '#fade' }), decide('CLICK', 'e1'))).acted)
  t.is(await running(), 1, 'the button\'s fade goes on after the step')
})

test('TYPE_TEXT into a combobox waits for its suggestions, which come after a pause in typing', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<input id="city" role="combobox" aria-expanded="false" aria-controls="list" aria-label="City"><ul id="list" role="listbox"></ul>
    <script>
      let timer
      document.querySelector('#city').addEventListener('input', (event) => {
        clearTimeout(timer)
        timer = setTimeout(() => { document.querySelector('#list').innerHTML = '<li role="option">Porto, Portugal</li>' }, 150)
      })
    </script>`)
  const observed = await observe(page)
  t.teardown(() => observed.dispose())
  const element = observed.observation.elements.find((candidate) => candidate.name === 'City')!
  t.is(element.role, 'combobox')
  const snapshot = await snapshotOf(page, { [element.id]: '#city' })
  const performed = await perform({ page, snapshot, decision: decide('TYPE_TEXT', element.id), element, text: 'Porto', waitMs: 0, checkFreshness: connected }, (promise) => promise)
  t.true('outcome' in performed && performed.outcome.acted)
  t.is(await text(page, '#list'), 'Porto, Portugal')
})

const DATE_FIELD = `<input id="day" type="date" value="2025-06-12"><p id="out"></p>
  <script>
    const day = document.querySelector('#day')
    for (const type of ['input', 'change']) day.addEventListener(type, () => { document.querySelector('#out').textContent += type + ' ' + day.value + ';' })
  </script>`

test('TYPE_TEXT sets a date field whole, with the input and change events its picker sends', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(DATE_FIELD)
  const outcome = await run(page, await snapshotOf(page, { e1: '#day' }), decide('TYPE_TEXT', 'e1'), { text: '2025-06-20' })
  t.true(outcome.acted)
  t.is(await page.$eval('#day', (element) => (element as HTMLInputElement).value), '2025-06-20')
  t.is(await text(page), 'input 2025-06-20;change 2025-06-20;')
})

test('TYPE_TEXT refuses a date written in another format: the field keeps its value and the reason gives the format', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(DATE_FIELD)
  const outcome = await run(page, await snapshotOf(page, { e1: '#day' }), decide('TYPE_TEXT', 'e1'), { text: '06/20/2025' })
  t.deepEqual(outcome, { acted: false, stale: 'a date field takes its value written as YYYY-MM-DD, which "06/20/2025" is not' })
  t.is(await page.$eval('#day', (element) => (element as HTMLInputElement).value), '2025-06-12')
  t.is(await text(page), '', 'no event for a value that did not go in')
})

test('TYPE_TEXT checks again after focus: a target that went stale then gets no text', async (t) => {
  const page = await open(t)
  let calls = 0
  const staleAfterFocus: CheckFreshness = async (snapshot, id) => {
    calls += 1
    return calls === 1 ? connected(snapshot, id) : { fresh: false, reason: 'its value changed' }
  }
  const outcome = await run(page, await snapshotOf(page, { e1: '#name' }), decide('TYPE_TEXT', 'e1'), { text: 'Ada', checkFreshness: staleAfterFocus })
  t.deepEqual(outcome, { acted: false, stale: 'after focus: its value changed' })
  t.is(await page.$eval('#name', (element) => (element as HTMLInputElement).value), 'old')
})

test('TYPE_TEXT requires the target to still hold keyboard focus when the text goes in', async (t) => {
  const page = await open(t)
  let calls = 0
  // Something on the page moves focus between the focus and the insertion.
  const focusThief: CheckFreshness = async (snapshot, id) => {
    calls += 1
    if (calls === 2) await page.focus('#q')
    return connected(snapshot, id)
  }
  const outcome = await run(page, await snapshotOf(page, { e1: '#name' }), decide('TYPE_TEXT', 'e1'), { text: 'Ada', checkFreshness: focusThief })
  t.false(outcome.acted)
  t.regex((outcome as { stale: string }).stale, /does not hold keyboard focus \(input does\)/)
  t.is(await page.$eval('#name', (element) => (element as HTMLInputElement).value), 'old')
  t.is(await page.$eval('#q', (element) => (element as HTMLInputElement).value), '')
})

test('SELECT chooses an option of a native select and fires change', async (t) => {
  const page = await open(t)
  const element = observedElement('e1', {
    tag: 'select',
    role: 'combobox',
    operations: ['select'],
    options: [
      { id: 'o1', label: 'Small', value: 's', selected: true },
      { id: 'o2', label: 'Large', value: 'l', selected: false },
    ],
  })
  await run(page, await snapshotOf(page, { e1: '#size' }), decide('SELECT', 'e1', 'o2'), { element })
  t.is(await text(page), 'size l')
})

test('SELECT clicks the option of an ARIA listbox', async (t) => {
  const page = await open(t)
  const element = observedElement('e1', {
    tag: 'div',
    role: 'listbox',
    operations: ['select'],
    options: [
      { id: 'o1', label: 'Red', value: 'Red', selected: false },
      { id: 'o2', label: 'Blue', value: 'Blue', selected: false },
    ],
  })
  await run(page, await snapshotOf(page, { e1: '#colors' }), decide('SELECT', 'e1', 'o2'), { element })
  t.is(await text(page), 'color blue')
})

test('SELECT of an option the target does not offer fails', async (t) => {
  const page = await open(t)
  const element = observedElement('e1', { tag: 'select', options: [{ id: 'o1', label: 'Small', value: 's', selected: true }] })
  await t.throwsAsync(run(page, await snapshotOf(page, { e1: '#size' }), decide('SELECT', 'e1', 'o9'), { element }), {
    message: /option o9, which e1 does not offer/,
  })
})

test('SUBMIT from a field presses Enter, which submits its form', async (t) => {
  const page = await open(t)
  await page.type('#q', 'moss')
  await run(page, await snapshotOf(page, { e1: '#q' }), decide('SUBMIT', 'e1'))
  t.is(await text(page), 'searched moss')
})

test('SCROLL_DOWN and SCROLL_UP move the page and a scroll container', async (t) => {
  const page = await open(t)
  const snapshot = await snapshotOf(page, {}, { s1: '#box' })
  await run(page, snapshot, decide('SCROLL_DOWN', 'page'))
  t.true((await page.evaluate(() => window.scrollY)) > 300)
  await run(page, snapshot, decide('SCROLL_UP', 'page'))
  t.is(await page.evaluate(() => window.scrollY), 0)
  await run(page, snapshot, decide('SCROLL_DOWN', 's1'))
  t.true((await page.$eval('#box', (element) => element.scrollTop)) > 50)
})

test('WAIT accepts zero', async (t) => {
  const page = await open(t)
  t.deepEqual(await run(page, await snapshotOf(page, {}), decide('WAIT')), { acted: true, frames: [] })
})

test('an aborted signal stops before the input', async (t) => {
  const page = await open(t)
  const controller = new AbortController()
  controller.abort(new Error('caller gave up'))
  await t.throwsAsync(run(page, await snapshotOf(page, { e1: '#fetch' }), decide('CLICK', 'e1'), { signal: controller.signal }), {
    message: 'caller gave up',
  })
  t.is(await text(page), 'idle')
})

test('settle stops waiting for a request that never answers at its bound', async (t) => {
  const page = await open(t)
  const activity = watchActivity(page)
  await page.evaluate(() => void fetch('/hang').catch(() => {}))
  await activity.until(() => activity.inflight > 0, 2_000)
  await settle(page, activity, [], { ...SETTLE_BOUNDS, networkMs: 100 })
  // Settle has returned although /hang is still open (other requests, e.g. a favicon, may come and go).
  t.true(activity.inflight >= 1)
  activity.dispose()
})

test('native dialogs are answered and recorded: alert and confirm accepted, prompt dismissed', async (t) => {
  const page = await open(t, 'sites/alert/index.html')
  const events = watchPageEvents(page)
  t.teardown(() => events.dispose())
  const snapshot = await snapshotOf(page, { e1: '#reveal', e2: '#remove', e3: '#name' })
  await run(page, snapshot, decide('CLICK', 'e1'))
  t.is(await text(page, '#coupon'), 'Coupon: SAVE10')
  await run(page, snapshot, decide('CLICK', 'e2'))
  t.is(await text(page, '#coupon'), 'Coupon removed.')
  await run(page, snapshot, decide('CLICK', 'e3'))
  t.is(await text(page, '#coupon'), 'Coupon unnamed.')
  t.deepEqual(events.takeDialogs(), [
    { type: 'alert', message: 'Your coupon is SAVE10', accepted: true },
    { type: 'confirm', message: 'Remove the coupon?', accepted: true },
    { type: 'prompt', message: 'Coupon name?', accepted: false },
  ])
  t.deepEqual(events.takeDialogs(), [])
})

test('a popup tab is reported with its URL and not followed', async (t) => {
  const page = await open(t, 'sites/popup/index.html')
  const events = watchPageEvents(page)
  t.teardown(() => events.dispose())
  await events.ready
  await run(page, await snapshotOf(page, { e1: 'a' }), decide('CLICK', 'e1'))
  t.deepEqual(events.takePopups(), [server.url('sites/popup/partner.html')])
  t.true(page.url().endsWith('/sites/popup/index.html'))
})

test('a navigation the page asks for counts as under way before its request is seen, so settling waits for it', async (t) => {
  const page = await open(t)
  const activity = watchActivity(page)
  t.teardown(() => activity.dispose())
  let requestSeen = false
  page.on('request', (request) => {
    if (request.isNavigationRequest()) requestSeen = true
  })
  const asked = new Promise<{ navigating: boolean; requestSeen: boolean }>((resolve) => {
    // Registered after the watch's own listener, so it reads the watch as the event has left it.
    frameSession(page.mainFrame()).once('Page.frameRequestedNavigation', () => resolve({ navigating: activity.navigating, requestSeen }))
  })
  await page.evaluate(() => {
    const form = document.createElement('form')
    form.action = '/sites/executor/next.html'
    document.body.append(form)
    form.submit()
  })
  t.deepEqual(await asked, { navigating: true, requestSeen: false })
  t.true(await activity.until(() => !activity.navigating, 5_000))
  t.true(page.url().includes('/sites/executor/next.html'))
})
