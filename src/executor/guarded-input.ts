import type { ElementHandle, JSHandle, Page } from 'puppeteer-core'
import { browserHitTest, type HitResult } from './browser-hit-test.ts'
import { isDocumentGone } from '../browser/document-gone.ts'
import { callHandleInFrame } from '../browser/page-script.ts'
import type { InputWatch, WatchReport } from '../page/watch-input.ts'

// A click or a key press that must land on the target the model chose. Before the press, the browser's own
// hit test, made with the pointer already at the point; during it, a watch in the isolated world that stops
// any event of the press reaching another element and says so. A problem found before the press is a
// stale decision; a press that reached anything else is `redirected`, and the run must not go on as if
// the target had received it.

/** The events of one click, in the order the browser sends them; each must reach the target. */
const CLICK_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']
/** The events of a key press; each must reach the focused target. */
const KEY_EVENTS = ['keydown', 'keypress', 'keyup']
/** At least one of these must arrive at the target's document, or the press went somewhere else. */
const PRESS_EVENTS = { click: ['pointerdown', 'mousedown'], key: ['keydown'] }

export type InputResult = { done: true } | { done: false; stale: string } | { done: false; redirected: string }

/** The document was replaced before anything was pressed: a stale decision. */
const DOCUMENT_CHANGED: InputResult = { done: false, stale: 'document changed' }

/**
 * Arms a watch for `types` on the target, runs `press` with it and disarms it; a document replaced
 * before or while arming is a stale decision, and nothing is pressed.
 */
async function watched(handle: ElementHandle<Element>, types: string[], press: (watch: JSHandle<InputWatch>) => Promise<InputResult>): Promise<InputResult> {
  let watch: JSHandle<InputWatch>
  try {
    watch = await callHandleInFrame(handle.frame, 'watchInput', handle, types)
  } catch (error) {
    if (isDocumentGone(error)) return DOCUMENT_CHANGED
    throw error
  }
  try {
    return await press(watch)
  } finally {
    disarm(watch)
  }
}

/** The watch's report; null once the document is gone (the input navigated it away, which is its right). */
async function read(watch: JSHandle<InputWatch>): Promise<WatchReport | null> {
  try {
    return await watch.evaluate((armed) => armed.report())
  } catch (error) {
    if (isDocumentGone(error)) return null
    throw error
  }
}

function disarm(watch: JSHandle<InputWatch>): void {
  void watch
    .evaluate((armed) => armed.dispose())
    .catch(() => {})
    .finally(() => watch.dispose().catch(() => {}))
}

/** The verdict on what the watch saw. `pressed` are the events that show the press reached the document. */
function verdict(report: WatchReport | null, pressed: string[], kind: string): InputResult {
  if (report === null) return { done: true }
  if (report.redirected) return { done: false, redirected: `the ${report.redirected.type} of the ${kind} reached ${report.redirected.to}, not the target` }
  if (!pressed.some((type) => report.seen.includes(type))) return { done: false, redirected: `the ${kind} never reached the target's document` }
  return { done: true }
}

/** Clicks the centre of the target's visible box, after the browser has confirmed the target is there. */
export async function clickTarget(page: Page, handle: ElementHandle<Element>): Promise<InputResult> {
  let point: { x: number; y: number }
  try {
    point = await handle.clickablePoint()
  } catch (error) {
    // Hidden, detached or replaced since the guard looked: never click where it used to be.
    return { done: false, stale: `the target could not be located for the click (${error instanceof Error ? error.message : String(error)})` }
  }
  return watched(handle, CLICK_EVENTS, async (watch) => {
    await page.mouse.move(point.x, point.y)
    let hit: HitResult
    try {
      hit = await browserHitTest(page, handle, watch, point)
    } catch (error) {
      // Replaced while the pointer moved: nothing was pressed yet.
      if (isDocumentGone(error)) return DOCUMENT_CHANGED
      throw error
    }
    if (!hit.onTarget) return { done: false, stale: `the browser's hit test found ${hit.found} at the target's point` }
    await page.mouse.down()
    const press = await read(watch)
    // Released in any case, so the button is not left down; the watch stops a misdirected release.
    await page.mouse.up()
    const pressVerdict = verdict(press, PRESS_EVENTS.click, 'click')
    if (!pressVerdict.done) return pressVerdict
    return verdict(await read(watch), PRESS_EVENTS.click, 'click')
  })
}

/** Presses Enter in the target, which must hold focus (the caller has checked it) and receive the key. */
export async function pressEnter(page: Page, handle: ElementHandle<Element>): Promise<InputResult> {
  return watched(handle, KEY_EVENTS, async (watch) => {
    await page.keyboard.press('Enter')
    return verdict(await read(watch), PRESS_EVENTS.key, 'key press')
  })
}
