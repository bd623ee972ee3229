import type { ElementHandle } from 'puppeteer-core'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FreshnessOptions, Freshness } from '../collector/check-freshness.ts'
import { optionById } from '../collector/find-target.ts'
import type { Decision } from '../decision/decision.ts'
import { specOf, type PageOperation } from '../operations.ts'
import { outcomeOf, type ActionInput, type ActionOutcome } from './action.ts'
import { drag } from './drag.ts'
import { clickTarget, focusTarget, hoverTarget, pointOf, pressEnter, typedByKeys, typeKeys, type Gate, type InputResult, type Point } from './guarded-input.ts'
import { press } from './press-key.ts'
import { callHandleInFrame, callInFrame } from '../browser/page-script.ts'
import { isDocumentGone } from '../base/gone.ts'
import type { ReplaceResult } from '../page/input.ts'
import type { TextEdit } from '../../types/index.d.ts'
import { editRange } from './text-edit.ts'

export type { ActionInput, ActionOutcome, CheckFreshness } from './action.ts'

/** How each operation carried out on the page is done; the operations table lists them. */
const CARRY_OUT: Record<PageOperation, (input: ActionInput) => Promise<ActionOutcome>> = {
  CLICK: click,
  TYPE_TEXT: typeText,
  SUBMIT: (input) => withFreshTarget(input, (handle, at) => submit(input, handle, at)),
  SELECT: (input) => withFreshTarget(input, (handle) => selectOption(input, handle)),
  PRESS: press,
  HOVER: (input) => withFreshTarget(input, (handle, at) => hoverTarget(input.page, handle, at)),
  DRAG: drag,
  SCROLL_DOWN: (input) => scroll(input, 1),
  SCROLL_UP: (input) => scroll(input, -1),
  WAIT: async (input) => {
    await sleep(input.waitMs, undefined, { signal: input.signal })
    return { acted: true, frames: [] }
  },
}

/** Carries out one decided operation on the live page. Input happens only after a fresh guard check. */
export async function act(input: ActionInput): Promise<ActionOutcome> {
  const { operation } = input.decision
  if (specOf(operation).ends) throw new Error(`The executor cannot carry out ${operation}: it is not an action on the page.`)
  await input.snapshot.ready
  return CARRY_OUT[operation as PageOperation](input)
}

/** Runs `run` on a target the freshness check passed, with the point where the check found it visible. */
async function withFreshTarget(input: ActionInput, run: (handle: ElementHandle<Element>, at?: Point) => Promise<InputResult>): Promise<ActionOutcome> {
  const fresh = await checkTarget(input)
  if (!fresh.fresh) return { acted: false, stale: fresh.reason }
  input.signal?.throwIfAborted()
  return outcomeOf(await run(fresh.handle, fresh.at), fresh.handle)
}

async function checkTarget(input: ActionInput, options?: FreshnessOptions): Promise<Freshness> {
  return input.checkFreshness(input.snapshot, targetOf(input.decision), options)
}

function targetOf(decision: Decision): string {
  if (!decision.target) throw new Error(`${decision.operation} needs a target, and the decision has none.`)
  return decision.target
}

/**
 * A click; on a field, it is there to put the caret in it, and is judged by the keyboard focus it gave
 * the field. The freshness check runs while the click's watch is armed and its point found, and
 * nothing is pressed before it passed.
 */
async function click(input: ActionInput): Promise<ActionOutcome> {
  const approach = input.element && !input.element.pointerFollowed ? 'press' : 'move'
  const intoField = input.element?.operations.includes('type') === true
  const handle = input.snapshot.handles.get(targetOf(input.decision))
  // A target the snapshot holds no handle for is known to the check alone, which then runs first.
  if (!handle) return withFreshTarget(input, (checked, at) => clickTarget(input.page, checked, approach, at, intoField))
  const gate: Gate = checkTarget(input).then((fresh) => {
    if (!fresh.fresh) return { done: false, stale: fresh.reason }
    input.signal?.throwIfAborted()
    // Pressed where the check saw it; a check that gave no point leaves the click to find one.
    return fresh.at ?? pointOf(handle, 'click')
  })
  // Read by the click, maybe after a failure of its own: never a rejection no one awaits.
  gate.catch(() => {})
  return outcomeOf(await clickTarget(input.page, handle, approach, gate, intoField), handle)
}

async function selectOption(input: ActionInput, handle: ElementHandle<Element>): Promise<InputResult> {
  const option = optionById(input.element, input.decision.option)
  if (!option) {
    throw new Error(`SELECT chose option ${String(input.decision.option)}, which ${input.decision.target} does not offer.`)
  }
  const multiple = input.element?.state?.multiple === true
  if (input.element?.tag === 'select') {
    // A multiple select keeps its other choices: the option is added, or removed when it was chosen.
    const current = multiple ? await handle.evaluate((select) => Array.from((select as HTMLSelectElement).selectedOptions, (chosen) => chosen.value)) : []
    const wanted = !multiple ? [option.value] : current.includes(option.value) ? current.filter((value) => value !== option.value) : [...current, option.value]
    const selected = await handle.select(...wanted)
    if (selected.includes(option.value) !== wanted.includes(option.value)) {
      throw new Error(`The select ${input.decision.target} refused to ${wanted.includes(option.value) ? 'choose' : 'drop'} the value ${JSON.stringify(option.value)}.`)
    }
    return { done: true }
  }
  const optionHandle = await callHandleInFrame(handle.frame, 'findListOption', handle, option.value)
  const element = optionHandle.asElement() as ElementHandle<Element> | null
  if (!element) {
    await optionHandle.dispose()
    throw new Error(`The listbox ${input.decision.target} has no option labelled ${JSON.stringify(option.label)} any more.`)
  }
  try {
    // The option was not checked by the freshness guard and may lie outside the listbox's scrolled view;
    // the click's own browser hit test and watch make sure the press lands on it.
    await element.scrollIntoView()
    if (!multiple) return await clickTarget(input.page, element)
    // Ctrl-click adds an option to a multiple listbox's choice, or takes it out, as it does for a person.
    await input.page.keyboard.down('Control')
    try {
      return await clickTarget(input.page, element)
    } finally {
      await input.page.keyboard.up('Control')
    }
  } finally {
    await element.dispose()
  }
}

// Text entry checks twice: once before focusing, and again after focus, right before inserting;
// focus is checked once more in the same task as the insertion, so nothing can take it in between.
async function typeText(input: ActionInput): Promise<ActionOutcome> {
  if (input.text === undefined) throw new Error('TYPE_TEXT needs a value to write, and none was given.')
  const asKeys = input.element?.operations.includes('keys') === true
  if (asKeys && !typedByKeys(input.text)) {
    throw new Error(`TYPE_TEXT into ${input.decision.target} goes as key presses, and the text holds a character no key types: nothing was typed.`)
  }
  const before = await checkTarget(input)
  if (!before.fresh) return { acted: false, stale: before.reason }
  input.signal?.throwIfAborted()
  await focusTarget(before.handle)
  const after = await checkTarget(input, { focused: true })
  if (!after.fresh) return { acted: false, stale: `after focus: ${after.reason}` }
  input.signal?.throwIfAborted()
  // An element that reads keys gets each of them, every one watched to reach it.
  if (asKeys) return outcomeOf(await typeKeys(input.page, after.handle, input.text), after.handle)
  // Focus is checked once more in the same task as the insertion, so nothing can take it in between.
  const result = input.edit ? await typeEdit(after.handle, input.edit, input.text) : await callInFrame(after.handle.frame, 'replaceFocusedValue', after.handle, input.text)
  if ('refused' in result) return { acted: false, refused: result.refused }
  if (!result.ok) return { acted: false, stale: result.reason }
  return result.password ? { acted: true, frames: [after.handle.frame], password: true } : { acted: true, frames: [after.handle.frame] }
}

/**
 * An edit of part of the field's value: placed by the value read now, in Node, and typed over that
 * range only if the value is still the one read (focus is checked in the same task as the insertion,
 * as for a whole value). Refused before any input when the field holds no text value or the quoted
 * passage is not in it exactly once.
 */
async function typeEdit(handle: ElementHandle<Element>, edit: TextEdit, text: string): Promise<ReplaceResult | { refused: string }> {
  const value = await callInFrame(handle.frame, 'fieldValue', handle)
  if (value === null) return { refused: 'only a text field\'s value can be edited in part: type its whole value' }
  const range = editRange(value, edit)
  if ('refused' in range) return range
  return callInFrame(handle.frame, 'editFocusedValue', handle, value, range.start, range.end, text)
}

async function submit(input: ActionInput, handle: ElementHandle<Element>, at?: Point): Promise<InputResult> {
  const plan = await callInFrame(handle.frame, 'planSubmit', handle)
  if (plan === 'click') return clickTarget(input.page, handle, 'move', at)
  if (plan === 'enter') {
    await focusTarget(handle)
    const focused = await checkTarget(input, { focused: true })
    if (!focused.fresh) return { done: false, stale: `after focus: ${focused.reason}` }
    return pressEnter(input.page, handle)
  }
  await callInFrame(handle.frame, 'requestSubmit', handle)
  return { done: true }
}

async function scroll(input: ActionInput, direction: 1 | -1): Promise<ActionOutcome> {
  const target = targetOf(input.decision)
  if (target === 'page') {
    input.signal?.throwIfAborted()
    await callInFrame(input.page.mainFrame(), 'scrollByPage', null, direction)
    return { acted: true, frames: [] }
  }
  const handle = input.snapshot.scrollHandles.get(target)
  if (!handle) throw new Error(`${input.decision.operation} chose ${target}, which is not a scroll container of this observation.`)
  const connected = await handle.evaluate((element) => element.isConnected).catch(unlessDocumentGone(false))
  if (!connected) return { acted: false, stale: 'the scroll container is no longer in the document' }
  input.signal?.throwIfAborted()
  await callInFrame(handle.frame, 'scrollByPage', handle, direction)
  return { acted: true, frames: [handle.frame] }
}

/** A catch that answers `gone` when the document or node the call needed is gone, and rethrows the rest. */
function unlessDocumentGone<T>(gone: T): (error: unknown) => T {
  return (error) => {
    if (isDocumentGone(error)) return gone
    throw error
  }
}
