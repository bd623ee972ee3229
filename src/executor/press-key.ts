import type { ElementHandle } from 'puppeteer-core'
import { isolatedWorld } from '../browser/isolated-world.ts'
import type { ObservedElement } from '../collector/observation.ts'
import { FOCUSED_TARGET, type PressKey } from '../operations.ts'
import { outcomeOf, type ActionInput, type ActionOutcome } from './action.ts'
import { focusTarget, pressKey } from './guarded-input.ts'

// PRESS: one key of PRESS_KEYS, on a target or on whatever holds focus. A target is focused first
// and checked as TYPE_TEXT's is (fresh before, focused after), then the key must reach it.

export async function press(input: ActionInput): Promise<ActionOutcome> {
  const { decision } = input
  if (!decision.key) throw new Error(`PRESS on ${String(decision.target)} needs a key, and the decision has none.`)
  if (decision.target === FOCUSED_TARGET) return pressOnFocus(input, decision.key)
  const before = await input.checkFreshness(input.snapshot, decision.target!)
  if (!before.fresh) return { acted: false, stale: before.reason }
  input.signal?.throwIfAborted()
  await focusTarget(before.handle)
  const after = await input.checkFreshness(input.snapshot, decision.target!, { focused: true })
  if (!after.fresh) return { acted: false, stale: `after focus: ${after.reason}` }
  input.signal?.throwIfAborted()
  return outcomeOf(await pressKey(input.page, after.handle, decision.key), after.handle)
}

/**
 * The key goes to what holds focus. When the model saw a control holding it, that control must still
 * hold it and receive the key; otherwise focus was on the page itself, and the key must reach the
 * page's body and nothing in it (a page that moved focus to a button meanwhile does not get it pressed).
 */
async function pressOnFocus(input: ActionInput, key: PressKey): Promise<ActionOutcome> {
  const holder: ObservedElement | undefined = input.snapshot.observation.elements.find((element) => element.focused)
  if (!holder) {
    const body = (await isolatedWorld(input.page.mainFrame()).evaluateHandle(() => document.body ?? document.documentElement)).asElement()
    if (!body) throw new Error('PRESS on the page found no body or root element to send the key to.')
    const handle = body as ElementHandle<Element>
    try {
      input.signal?.throwIfAborted()
      const result = await pressKey(input.page, handle, key, true)
      return result.done ? { acted: true, frames: [] } : outcomeOf(result, handle)
    } finally {
      void handle.dispose().catch(() => {})
    }
  }
  const fresh = await input.checkFreshness(input.snapshot, holder.id, { focused: true })
  if (!fresh.fresh) return { acted: false, stale: `the control that held focus (${holder.id}): ${fresh.reason}` }
  input.signal?.throwIfAborted()
  return outcomeOf(await pressKey(input.page, fresh.handle, key), fresh.handle)
}
