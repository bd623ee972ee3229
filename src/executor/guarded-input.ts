import type { ElementHandle, JSHandle, KeyInput, Page, Point } from 'puppeteer-core'
import { isPressKey, type PressKey } from '../operations.ts'
import { browserHitTest, hitFacts, type HitFacts, type HitResult } from './browser-hit-test.ts'
import { isDocumentGone } from '../base/gone.ts'
import { frameSession } from '../browser/isolated-world.ts'
import { callHandleInFrame } from '../browser/page-script.ts'
import type { InputWatch, WatchReport } from '../page/watch-input.ts'

// A click, a key press, a hover or a drag that must land on the target the model chose. Before the press, the browser's own
// hit test, made with the pointer already at the point; during it, a watch in the isolated world that stops
// any event of the press reaching another element and says so. A problem found before the press is a
// stale decision; a press that reached anything else is `redirected`, and the run must not go on as if
// the target had received it.

/** The events of one click, in the order the browser sends them; each must reach the target. */
const CLICK_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']
/** The events of a key press; each must reach the focused target. */
const KEY_EVENTS = ['keydown', 'keypress', 'keyup']
/**
 * The events of a PRESS that must reach the target: the key acts on keydown, and a key that moves
 * focus (Tab, an arrow in a roving list) rightly sends its keyup to where focus went.
 */
const PRESS_KEY_EVENTS = ['keydown', 'keypress']
/** The first of these reaching another element means the pointer came to rest on something else. */
const HOVER_EVENTS = ['pointerover', 'mouseover']
/** Pointer moves between the press and the release of a drag: page drag code follows moves, not jumps. */
const DRAG_STEPS = 12
/** At least one of these must arrive at the target's document, or the press went somewhere else. */
const PRESS_EVENTS = { click: ['pointerdown', 'mousedown'], key: ['keydown'] }

/** A point in top-viewport CSS pixels: Puppeteer's, as its mouse takes it. */
export type { Point }

/** `at`: performance.now() once the last input event was delivered, what the page's quiet is counted from. */
export type InputResult = { done: true; at?: number } | { done: false; stale: string } | { done: false; redirected: string }

/**
 * The freshness check's verdict on the target: the point to press it at (where the check found it
 * visible), or why it may not be pressed.
 */
export type Gate = Promise<Point | InputResult>

/** The document was replaced before anything was pressed: a stale decision. */
const DOCUMENT_CHANGED: InputResult = { done: false, stale: 'document changed' }

/**
 * Arms a watch for `types` on the target, runs `press` with it and disarms it; a document replaced
 * before or while arming is a stale decision, and nothing is pressed.
 */
async function watched(
  handle: ElementHandle<Element>,
  types: string[],
  press: (watch: JSHandle<InputWatch>) => Promise<InputResult>,
  exact = false,
  gate?: Gate,
): Promise<InputResult> {
  let watch: JSHandle<InputWatch>
  try {
    watch = await callHandleInFrame(handle.frame, 'watchInput', handle, types, exact)
  } catch (error) {
    // The freshness check, when it runs beside the arming, says best what became of the target.
    if (isDocumentGone(error)) return refusal(await gate) ?? DOCUMENT_CHANGED
    await gate?.catch(() => {})
    throw error
  }
  try {
    return await press(watch)
  } finally {
    disarm(watch)
  }
}

/** The verdict of a gate that refused the input; null for none or one that let it through. */
function refusal(verdict: Point | InputResult | undefined): InputResult | null {
  return verdict && 'done' in verdict ? verdict : null
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

/** A click's verdict on what the watch saw. */
type ClickVerdict = (report: WatchReport | null) => InputResult

/** A click must bring each of its events to the target. */
const pressVerdict: ClickVerdict = (report) => verdict(report, PRESS_EVENTS.click, 'click')

/**
 * A click into a field is there to give it keyboard focus: it landed when focus was in the field as
 * the click reached it or came to it then, whatever the page did with focus next (a page that ends its
 * task on focus and covers itself with a dialog also takes the release, which the watch stopped). The
 * keys that follow check focus again themselves.
 */
const focusVerdict: ClickVerdict = (report) => {
  if (report === null || report.focused) return { done: true }
  const pressed = pressVerdict(report)
  return pressed.done ? { done: false, redirected: `the click left keyboard focus on ${report.holder}, not in the field` } : pressed
}

/**
 * Gives the target keyboard focus without scrolling anything: the page stays where the model saw it,
 * and a textarea keeps its scroll position (a plain focus() puts it back at the top).
 */
export async function focusTarget(handle: ElementHandle<Element>): Promise<void> {
  await handle.evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }))
}

/** The centre of the target's visible box, or why it has none (hidden, detached or replaced since the guard looked). */
export async function pointOf(handle: ElementHandle<Element>, input: string): Promise<Point | InputResult> {
  try {
    return await handle.clickablePoint()
  } catch (error) {
    return { done: false, stale: `the target could not be located for the ${input} (${error instanceof Error ? error.message : String(error)})` }
  }
}

/** The browser's hit test at `point`, as an input's verdict: null when the target is there. */
async function hitVerdict(page: Page, handle: ElementHandle<Element>, watch: JSHandle<InputWatch>, point: Point, facts?: HitFacts): Promise<InputResult | null> {
  let hit: HitResult
  try {
    hit = await browserHitTest(page, handle, watch, point, facts)
  } catch (error) {
    // Replaced while the pointer moved: nothing was pressed yet.
    if (isDocumentGone(error)) return DOCUMENT_CHANGED
    throw error
  }
  return hit.onTarget ? null : { done: false, stale: `the browser's hit test found ${hit.found} at the target's point` }
}

/**
 * How the pointer comes to the target before a press. `move`: moved there first, which the browser
 * delivers with the next frame (about 8 ms, up to 16), so that the page's pointer listeners have run
 * before the hit test. `press`: pressed there directly, where the collector saw nothing on the way to
 * the target (nor the document, nor the window) listen to the pointer's moves, so that arriving runs
 * nothing; the hit test then reads the page as the press will find it, and the watch still stops a
 * press that a hover style sent elsewhere.
 */
export type Approach = 'move' | 'press'

/** A press or release of the left button at a point, sent as it is: the pointer arrives with it. */
async function button(page: Page, type: 'mousePressed' | 'mouseReleased', point: Point): Promise<void> {
  await frameSession(page.mainFrame()).send('Input.dispatchMouseEvent', { type, x: point.x, y: point.y, button: 'left', buttons: type === 'mousePressed' ? 1 : 0, clickCount: 1 })
}

/**
 * Brings the pointer to the point and presses there once the browser has confirmed the target is under
 * it; the events of `types` must reach the target. `held` runs between the press and the release (a drag's moves).
 * Nothing is pressed before `pointing` gave the point (a gate: once it let the input through).
 */
async function pressAt(
  page: Page,
  handle: ElementHandle<Element>,
  pointing: Point | Gate,
  types: string[],
  held?: () => Promise<void>,
  approach: Approach = 'move',
  judge: ClickVerdict = pressVerdict,
): Promise<InputResult> {
  // The point is found while the watch is armed (and the target checked, with a gate): none needs the others.
  // Where the pointer will not move first, the page's scroll is read now too.
  const knowing = hitFacts(page, handle, approach === 'press')
  return watched(
    handle,
    types,
    async (watch) => {
      const [point, facts] = await Promise.all([pointing, knowing])
      if ('done' in point) return point
      if (approach === 'move') await page.mouse.move(point.x, point.y)
      const missed = await hitVerdict(page, handle, watch, point, facts)
      if (missed) return missed
      if (approach === 'press' && !held) {
        // Sent together: nothing the release needs happens between them, and the watch judges both.
        await Promise.all([button(page, 'mousePressed', point), button(page, 'mouseReleased', point)])
        const at = performance.now()
        return delivered(judge(await read(watch)), at)
      }
      await (approach === 'move' ? page.mouse.down() : button(page, 'mousePressed', point))
      // A drag's moves only follow a press that reached the target; a click's release is judged with its press.
      const pressed = held ? pressVerdict(await read(watch)) : undefined
      // Released in any case, so the button is not left down; the watch stops a misdirected release.
      if (pressed?.done && held) await held()
      await (approach === 'move' ? page.mouse.up() : button(page, 'mouseReleased', point))
      const at = performance.now()
      if (pressed && !pressed.done) return pressed
      return delivered(judge(await read(watch)), at)
    },
    false,
    pointing instanceof Promise ? pointing : undefined,
  )
}

/** A verdict that the input landed, stamped with when it was delivered. */
function delivered(result: InputResult, at: number): InputResult {
  return result.done ? { done: true, at } : result
}

/**
 * Clicks the target at `where` (by default the centre of its visible box), after the browser has
 * confirmed the target is there. A click with a key held (a multiple listbox's Ctrl-click) moves the
 * pointer, which sends the keys along. With a gate, nothing is pressed until it lets the click through,
 * at the point it found; it is waited for while the watch is armed. A click `intoField` is judged by
 * the keyboard focus it gave the field.
 */
export async function clickTarget(page: Page, handle: ElementHandle<Element>, approach: Approach = 'move', where?: Point | Gate, intoField = false): Promise<InputResult> {
  return pressAt(page, handle, where ?? pointOf(handle, 'click'), CLICK_EVENTS, undefined, approach, intoField ? focusVerdict : pressVerdict)
}

/**
 * Presses the target at `from` and moves it to `to` before releasing it. The press is guarded as a
 * click's is; where the item is released is the page's to decide (a sortable list moves it as it goes).
 */
export async function dragTarget(page: Page, handle: ElementHandle<Element>, from: Point, to: Point): Promise<InputResult> {
  // Only the press is watched: the release rightly lands where the item was taken.
  return pressAt(page, handle, from, PRESS_EVENTS.click, () => page.mouse.move(to.x, to.y, { steps: DRAG_STEPS }))
}

/**
 * Rests the pointer on the target, at `at` or the centre of its visible box, without pressing: first the
 * browser confirms the target is at that point, then the move must bring the pointer over the target
 * and nothing else.
 */
export async function hoverTarget(page: Page, handle: ElementHandle<Element>, at?: Point): Promise<InputResult> {
  const point = at ?? (await pointOf(handle, 'hover'))
  if ('done' in point) return point
  return watched(handle, HOVER_EVENTS, async (watch) => {
    const missed = await hitVerdict(page, handle, watch, point)
    if (missed) return missed
    await page.mouse.move(point.x, point.y)
    const report = await read(watch)
    if (report?.redirected) return { done: false, redirected: `the ${report.redirected.type} of the hover reached ${report.redirected.to}, not the target` }
    return { done: true }
  })
}

/** Presses Enter in the target, which must hold focus (the caller has checked it) and receive the key. */
export async function pressEnter(page: Page, handle: ElementHandle<Element>): Promise<InputResult> {
  return watched(handle, KEY_EVENTS, async (watch) => {
    await page.keyboard.press('Enter')
    return verdict(await read(watch), PRESS_EVENTS.key, 'key press')
  })
}

/**
 * Presses one of PRESS_KEYS (or, typing keys, a character of a keyboard) in the target, which must
 * hold focus (the caller has checked it) and receive it; with `exact`, the target itself and nothing
 * inside it (the page's body, when no control held focus).
 */
export async function pressKey(page: Page, handle: ElementHandle<Element>, key: PressKey, exact = false): Promise<InputResult> {
  return watched(
    handle,
    PRESS_KEY_EVENTS,
    async (watch) => {
      await typeChord(page, key)
      return verdict(await read(watch), PRESS_EVENTS.key, 'key press')
    },
    exact,
  )
}

/**
 * Types `text` into the target as key presses, one character after another, each watched as PRESS's
 * key is: typing stops at the first key that did not reach the target. For an element that reads keys
 * and holds no value (a terminal), where a field's value would be set whole.
 */
export async function typeKeys(page: Page, handle: ElementHandle<Element>, text: string, exact = false): Promise<InputResult> {
  let result: InputResult = { done: true }
  for (const character of text) {
    result = await pressKey(page, handle, KEY_OF_CHARACTER.get(character) ?? character, exact)
    if (!result.done) return result
  }
  return result
}

/** The characters typed by a named key of their own. */
const KEY_OF_CHARACTER = new Map([[' ', 'Space'], ['\n', 'Enter'], ['\t', 'Tab']])

/** Whether every character of `text` is one a keyboard types (what `typeKeys` can send as key presses). */
export function typedByKeys(text: string): boolean {
  return [...text].every((character) => KEY_OF_CHARACTER.has(character) || isPressKey(character))
}

/**
 * The keys of a chord (`Shift+Tab`), modifiers held while the last is pressed, and released in any
 * case; a single character (`+` too) is pressed as it is.
 */
async function typeChord(page: Page, key: PressKey): Promise<void> {
  if (key.length === 1) return page.keyboard.press(key as KeyInput)
  const parts = key.split('+') as KeyInput[]
  const last = parts.pop()!
  const held: KeyInput[] = []
  try {
    for (const modifier of parts) {
      await page.keyboard.down(modifier)
      held.push(modifier)
    }
    // A letter of a chord is pressed by its key, so the page reads `a` with the modifier, as a person's.
    await page.keyboard.press(last.length === 1 ? (last.toLowerCase() as KeyInput) : last)
  } finally {
    for (const modifier of held.reverse()) await page.keyboard.up(modifier)
  }
}
