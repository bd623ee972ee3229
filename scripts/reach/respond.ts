import type { Browser, BrowserContext, CDPSession, ElementHandle, Frame, Page } from 'puppeteer-core'
import type { Snapshot } from '../../src/collector/observation.ts'
import { messageOf } from '../common/message.ts'
import { closeContext, observeWhole, pause, within } from './bounded.ts'
import { LOAD_TIMEOUT_MS } from './inspect.ts'
import { describe, fold, type Offered } from './match.ts'
import { armWatch, readWatch, startWatch } from './page-watch.ts'

// Precision: does each offered element respond when a person uses it? Every element gets a fresh
// load of the page (a new document, the origin's storage cleared), is found again by its index in a
// new observation, and is used once: a field gets a real click and one key ("1"), and responds when
// its value or text changed; a native select responds (its popup is the browser's, outside the
// DOM); anything else gets a click at its centre and responds when, within 300 ms, the DOM changed,
// a URL changed, a navigation or new tab started, a dialog opened, a field's value or checked state
// changed, or focus moved somewhere other than the element itself.
//
// One page is reused for all of a case's probes: a new context per probe would cost more than the
// probe. Before the first probe the page is watched idle for the same 300 ms: what changes on its
// own is noise, on every load after too.

export const MAX_PROBED = 60
const RESPONSE_MS = 300
const POLL_MS = 25
const PROBE_TIMEOUT_MS = 6_000
// A page (or a collector) that makes every probe time out must not hold the bench for minutes.
const CASE_BUDGET_MS = 40_000
const OBSERVE_TIMEOUT_MS = 10_000

export interface Probe {
  index: number
  element: string
  /** 'click', 'type' or 'select': how it was used. */
  use: 'click' | 'type' | 'select'
  /** Undefined when it could not be used (not found again, no box, the page hung). */
  responded?: boolean
  /** What answered: 'mutation 1/2/5', 'url', 'navigation', 'dialog', 'value', 'focus', 'new tab', 'typed'… */
  signal?: string
  error?: string
}

export interface Precision {
  probes: Probe[]
  /** Offered elements left unprobed: beyond the cap of MAX_PROBED a page, offered only for what a click cannot show (a drag), or all when probing failed. */
  skipped: number
  /** Why no element could be probed, when none could. */
  error?: string
}

/** Events of the page the probe listens to; reset before each press. */
interface Heard {
  armed: boolean
  navigation: boolean
  dialog: boolean
  popup: boolean
}

/** The operations whose response a click or typing shows. */
const PROBED_BY = new Set(['click', 'type', 'select', 'submit'])

export async function probeCase(browser: Browser, url: string, offered: readonly Offered[]): Promise<Precision> {
  // A click or a typed key is how the probe asks; a control offered only to drag, to take keys or to
  // choose from (a draggable card, a listbox keeping focus) has nothing a click would show.
  const targets = offered.filter((element) => element.operations.some((operation) => PROBED_BY.has(operation))).slice(0, MAX_PROBED)
  const probes: Probe[] = []
  let tab: Tab | undefined
  let noise = new Map<string, string[]>()
  const started = performance.now()
  try {
    for (const element of targets) {
      const use = element.operations.includes('type') ? 'type' : element.tag === 'select' ? 'select' : 'click'
      const probe: Probe = { index: element.index, element: describe(element), use }
      probes.push(probe)
      if (performance.now() - started > CASE_BUDGET_MS) {
        probe.error = `not tried: the page's probes took more than ${CASE_BUDGET_MS / 1000} s`
        continue
      }
      if (use === 'select') {
        probe.responded = true
        probe.signal = 'native select'
        continue
      }
      try {
        if (!tab) {
          tab = await openTab(browser)
          await tab.load(url)
          // The first load is watched idle, then probed as it is: nothing touched it.
          noise = await idleNoise(tab.page)
        } else {
          await tab.load(url)
        }
        Object.assign(probe, await within(PROBE_TIMEOUT_MS, 'the probe', probeElement(tab, element, noise)))
      } catch (error) {
        probe.error = messageOf(error)
        // A page that hung or broke its tab gets a new one for the next element.
        await tab?.close()
        tab = undefined
      }
    }
  } finally {
    await tab?.close()
  }
  return { probes, skipped: offered.length - targets.length }
}

interface Tab {
  page: Page
  heard: Heard
  load(url: string): Promise<void>
  close(): Promise<void>
}

async function openTab(browser: Browser): Promise<Tab> {
  const context: BrowserContext = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    const session: CDPSession = await page.createCDPSession()
    const heard: Heard = { armed: false, navigation: false, dialog: false, popup: false }
    page.on('dialog', (dialog) => {
      if (heard.armed) heard.dialog = true
      // Leaving a page must not be held up by its beforeunload prompt.
      void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => {})
    })
    page.on('popup', (popup) => {
      if (heard.armed) heard.popup = true
      void popup?.close().catch(() => {})
    })
    page.on('framenavigated', () => {
      if (heard.armed) heard.navigation = true
    })
    page.on('request', (request) => {
      if (heard.armed && request.isNavigationRequest()) heard.navigation = true
    })
    const load = async (url: string) => {
      heard.armed = false
      // A fresh load: the tab's session storage and the origin's storage and cookies are cleared.
      // The URL has no fragment, so going to it is a new document even from the same URL with one.
      await within(1_000, 'clearing session storage', page.evaluate(() => sessionStorage.clear())).catch(() => {})
      await session.send('Storage.clearDataForOrigin', { origin: new URL(url).origin, storageTypes: 'all' }).catch(() => {})
      await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS })
    }
    return { page, heard, load, close: () => closeContext(context) }
  } catch (error) {
    await closeContext(context)
    throw error
  }
}

/** The frames whose watch started: a frame that could not run it is not read (it would look gone). */
async function watched(page: Page): Promise<Frame[]> {
  const frames = page.frames()
  const started = await Promise.all(frames.map(startWatch))
  return frames.filter((_, index) => started[index])
}

/** What each frame changes by itself in one response window, by frame URL. */
async function idleNoise(page: Page): Promise<Map<string, string[]>> {
  const frames = await watched(page)
  await pause(RESPONSE_MS)
  const noise = new Map<string, string[]>()
  for (const frame of frames) {
    const change = await readWatch(frame)
    if (change !== 'gone' && change.noisy.length > 0) noise.set(frame.url(), change.noisy)
  }
  return noise
}

async function probeElement(tab: Tab, element: Offered, noise: Map<string, string[]>): Promise<Partial<Probe>> {
  const snapshot = await within(OBSERVE_TIMEOUT_MS, 'observe()', observeWhole(tab.page))
  try {
    const found = findAgain(snapshot, element)
    const handle = found && snapshot.handles.get(found.id)
    if (!handle) return { error: 'not offered again on a fresh load' }
    const point = await centre(handle)
    if (!point) return { error: 'has no box to click' }
    return element.operations.includes('type') ? await typeInto(tab, handle, point, noise) : await clickOn(tab, handle, point, noise)
  } finally {
    await snapshot.dispose().catch(() => {})
  }
}

/** The element at the same index of the new observation, if it is the same control; else the same control by name. */
function findAgain(snapshot: Snapshot, element: Offered): { id: string } | undefined {
  const same = (other: { role: string; name: string; tag: string }) =>
    other.role === element.role && other.tag === element.tag && fold(other.name) === fold(element.name)
  const elements = snapshot.observation.elements
  const atIndex = elements[element.index]
  return atIndex && same(atIndex) ? atIndex : elements.find(same)
}

/** The element's centre in the viewport, scrolled into view first when it is not there. */
async function centre(handle: ElementHandle<Element>): Promise<{ x: number; y: number } | undefined> {
  const inside = (box: { x: number; y: number; width: number; height: number } | null) => {
    if (!box || box.width === 0 || box.height === 0) return undefined
    const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    return point.x >= 0 && point.y >= 0 && point.x < 1280 && point.y < 800 ? point : undefined
  }
  const point = inside(await handle.boundingBox())
  if (point) return point
  await handle.scrollIntoView().catch(() => {})
  return inside(await handle.boundingBox())
}

async function clickOn(tab: Tab, handle: ElementHandle<Element>, point: { x: number; y: number }, noise: Map<string, string[]>): Promise<Partial<Probe>> {
  const { page, heard } = tab
  const frames = await watched(page)
  // The pointer arrives first: what hover handlers change now is not the click's doing.
  await page.mouse.move(point.x, point.y)
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => {})
  await Promise.all(frames.map((frame) => armWatch(frame, noise.get(frame.url()) ?? [])))
  const url = page.url()
  Object.assign(heard, { armed: true, navigation: false, dialog: false, popup: false })
  await page.mouse.down()
  await page.mouse.up()
  const started = performance.now()
  while (performance.now() - started < RESPONSE_MS) {
    const signal = await signalOf(tab, frames, handle, url)
    if (signal) return { responded: true, signal }
    await pause(POLL_MS)
  }
  return { responded: false }
}

/** The first sign of a response, or undefined. */
async function signalOf(tab: Tab, frames: readonly Frame[], handle: ElementHandle<Element>, url: string): Promise<string | undefined> {
  const { page, heard } = tab
  if (heard.dialog) return 'dialog'
  if (heard.popup) return 'new tab'
  if (heard.navigation) return 'navigation'
  if (page.url() !== url) return 'url'
  for (const frame of frames) {
    const change = await readWatch(frame)
    if (change === 'gone') return frame.detached ? 'frame removed' : 'navigation'
    if (change.mutated !== undefined) return `mutation at ${change.mutated}`
    if (change.value) return 'value'
    if (change.url) return 'url'
    if (change.focus && !(await focusOnItself(handle))) return 'focus'
  }
  return undefined
}

/** Focus on the element, inside it or on what holds it: what any click does, not a response. */
async function focusOnItself(handle: ElementHandle<Element>): Promise<boolean> {
  return handle
    .evaluate((element) => {
      let active = element.ownerDocument.activeElement
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
      return !active || active === element || element.contains(active) || active.contains(element)
    })
    .catch(() => false)
}

async function typeInto(tab: Tab, handle: ElementHandle<Element>, point: { x: number; y: number }, noise: Map<string, string[]>): Promise<Partial<Probe>> {
  const read = () =>
    handle.evaluate((element) => ('value' in element ? String((element as HTMLInputElement).value) : (element.textContent ?? ''))).catch(() => undefined)
  const before = await read()
  const frames = await watched(tab.page)
  await Promise.all(frames.map((frame) => armWatch(frame, noise.get(frame.url()) ?? [])))
  await tab.page.mouse.click(point.x, point.y)
  // A digit: every kind of field takes one (a number, date or time field ignores a letter).
  await tab.page.keyboard.type('1')
  await pause(POLL_MS)
  const after = await read()
  if (before !== undefined && after !== undefined) return after !== before ? { responded: true, signal: 'typed' } : { responded: false }
  // The field went away under the key (a re-render): then any field's change is the answer.
  for (const frame of frames) {
    const change = await readWatch(frame)
    if (change !== 'gone' && change.value) return { responded: true, signal: 'typed (another node)' }
  }
  return { responded: false }
}
