import type { ObservedElement } from '../collector/observation.ts'
import { FOCUSED_TARGET } from '../operations.ts'
import { outcomeOf, type ActionInput, type ActionOutcome } from './action.ts'
import { focusTarget, pressKey, typeChord } from './guarded-input.ts'

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
 * hold it and receive the key; otherwise (focus on the page itself) the key goes to the page.
 */
async function pressOnFocus(input: ActionInput, key: NonNullable<ActionInput['decision']['key']>): Promise<ActionOutcome> {
  const holder: ObservedElement | undefined = input.snapshot.observation.elements.find((element) => element.focused)
  if (!holder) {
    input.signal?.throwIfAborted()
    await typeChord(input.page, key)
    return { acted: true, frames: [] }
  }
  const fresh = await input.checkFreshness(input.snapshot, holder.id, { focused: true })
  if (!fresh.fresh) return { acted: false, stale: `the control that held focus (${holder.id}): ${fresh.reason}` }
  input.signal?.throwIfAborted()
  return outcomeOf(await pressKey(input.page, fresh.handle, key), fresh.handle)
}
