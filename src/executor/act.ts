import type { ElementHandle, Frame, Page } from 'puppeteer-core'
import { setTimeout as sleep } from 'node:timers/promises'
import type { Freshness, FreshnessOptions } from '../collector/check-freshness.ts'
import type { ObservedElement, Snapshot } from '../collector/observation.ts'
import type { Decision } from '../decision/decision.ts'
import { findListOption, planSubmit, replaceFocusedValue, requestSubmit, scrollByPage } from './page-scripts.ts'

/** The collector's freshness guard: is the target still the node, state and place the decision saw? */
export type CheckFreshness = (snapshot: Snapshot, actionId: string, options?: FreshnessOptions) => Promise<Freshness>

export interface ActionInput {
  page: Page
  snapshot: Snapshot
  decision: Decision
  /** The observed target, for operations on an element. */
  element?: ObservedElement
  /** The value to write, for TYPE_TEXT. */
  text?: string
  waitMs: number
  signal?: AbortSignal
  checkFreshness: CheckFreshness
}

/** `acted` with the frames the input went to; or the reason the target failed a freshness check. */
export type ActionOutcome = { acted: true; frames: Frame[] } | { acted: false; stale: string }

/** Carries out one decided operation on the live page. Input happens only after a fresh guard check. */
export async function act(input: ActionInput): Promise<ActionOutcome> {
  const { decision } = input
  switch (decision.operation) {
    case 'CLICK':
      return withFreshTarget(input, (handle) => click(input.page, handle))
    case 'SELECT':
      return withFreshTarget(input, (handle) => selectOption(input, handle))
    case 'TYPE_TEXT':
      return typeText(input)
    case 'SUBMIT':
      return withFreshTarget(input, (handle) => submit(input.page, handle))
    case 'SCROLL_DOWN':
    case 'SCROLL_UP':
      return scroll(input, decision.operation === 'SCROLL_DOWN' ? 1 : -1)
    case 'WAIT':
      await sleep(input.waitMs, undefined, { signal: input.signal })
      return { acted: true, frames: [] }
    default:
      throw new Error(`The executor cannot carry out ${decision.operation}: it is not an action on the page.`)
  }
}

async function withFreshTarget(input: ActionInput, run: (handle: ElementHandle<Element>) => Promise<void>): Promise<ActionOutcome> {
  const fresh = await checkTarget(input)
  if (!fresh.fresh) return { acted: false, stale: fresh.reason }
  input.signal?.throwIfAborted()
  try {
    await run(fresh.handle)
  } catch (error) {
    if (error instanceof TargetLost) return { acted: false, stale: error.message }
    throw error
  }
  return { acted: true, frames: [fresh.handle.frame] }
}

/** The target vanished between the guard and the input, before any input was sent. */
class TargetLost extends Error {}

async function checkTarget(input: ActionInput, options?: FreshnessOptions): Promise<Freshness> {
  return input.checkFreshness(input.snapshot, targetOf(input.decision), options)
}

function targetOf(decision: Decision): string {
  if (!decision.target) throw new Error(`${decision.operation} needs a target, and the decision has none.`)
  return decision.target
}

/**
 * Clicks the centre of the target's visible box, measured now. The guard has just found the target
 * visible and reached by a hit test, so there is nothing to scroll: Puppeteer's own click would first
 * wait an animation frame to find that out.
 */
async function click(page: Page, handle: ElementHandle<Element>): Promise<void> {
  let point: { x: number; y: number }
  try {
    point = await handle.clickablePoint()
  } catch (error) {
    // Hidden, detached or replaced since the guard looked: never click where it used to be.
    throw new TargetLost(`the target could not be located for the click (${error instanceof Error ? error.message : String(error)})`)
  }
  await page.mouse.click(point.x, point.y)
}

async function selectOption(input: ActionInput, handle: ElementHandle<Element>): Promise<void> {
  const option = input.element?.options?.find((candidate) => candidate.id === input.decision.option)
  if (!option) {
    throw new Error(`SELECT chose option ${String(input.decision.option)}, which ${input.decision.target} does not offer.`)
  }
  if (input.element?.tag === 'select') {
    const selected = await handle.select(option.value)
    if (!selected.includes(option.value)) throw new Error(`The select ${input.decision.target} refused the value ${JSON.stringify(option.value)}.`)
    return
  }
  const optionHandle = await handle.evaluateHandle(findListOption, option.label)
  const element = optionHandle.asElement() as ElementHandle<Element> | null
  if (!element) {
    await optionHandle.dispose()
    throw new Error(`The listbox ${input.decision.target} has no option labelled ${JSON.stringify(option.label)} any more.`)
  }
  try {
    // The option was not checked by the guard and may lie outside the listbox's scrolled view.
    await element.click()
  } finally {
    await element.dispose()
  }
}

// Text entry checks twice: once before focusing, and again after focus, right before inserting.
async function typeText(input: ActionInput): Promise<ActionOutcome> {
  if (input.text === undefined) throw new Error('TYPE_TEXT needs a value to write, and none was given.')
  const before = await checkTarget(input)
  if (!before.fresh) return { acted: false, stale: before.reason }
  input.signal?.throwIfAborted()
  await before.handle.focus()
  const after = await checkTarget(input, { focused: true })
  if (!after.fresh) return { acted: false, stale: `after focus: ${after.reason}` }
  input.signal?.throwIfAborted()
  // Focus is checked once more in the same task as the insertion, so nothing can take it in between.
  const result = await after.handle.evaluate(replaceFocusedValue, input.text)
  if (!result.ok) return { acted: false, stale: result.reason }
  return { acted: true, frames: [after.handle.frame] }
}

async function submit(page: Page, handle: ElementHandle<Element>): Promise<void> {
  const plan = await handle.evaluate(planSubmit)
  if (plan === 'click') await click(page, handle)
  else if (plan === 'enter') {
    await handle.focus()
    await page.keyboard.press('Enter')
  } else await handle.evaluate(requestSubmit)
}

async function scroll(input: ActionInput, direction: 1 | -1): Promise<ActionOutcome> {
  const target = targetOf(input.decision)
  if (target === 'page') {
    input.signal?.throwIfAborted()
    await input.page.evaluate(scrollByPage, null, direction)
    return { acted: true, frames: [] }
  }
  const handle = input.snapshot.scrollHandles.get(target)
  if (!handle) throw new Error(`${input.decision.operation} chose ${target}, which is not a scroll container of this observation.`)
  const connected = await handle.evaluate((element) => element.isConnected).catch(() => false)
  if (!connected) return { acted: false, stale: 'the scroll container is no longer in the document' }
  input.signal?.throwIfAborted()
  await handle.evaluate(scrollByPage, direction)
  return { acted: true, frames: [handle.frame] }
}
