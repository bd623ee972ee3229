import test from 'ava'
import { resolveCache } from '../src/cache/cache-settings.ts'
import { GoalReplay } from '../src/cache/goal-replay.ts'
import type { GoalEntry } from '../src/cache/goal-entry.ts'
import type { ChecklistReport } from '../types/index.d.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// What a goal's entry keeps of a run: never a password, typed values only when allowed, and the
// model's checklist only where the values it may name are kept.

const URL = 'https://shop.test/login/42'
const field = (type: string) => observedElement('e1', { role: 'textbox', name: type, tag: 'input', type, operations: ['type'] })

function typed(type: string) {
  const element = field(type)
  const observation = pageObservation({ url: URL, elements: [element] })
  return { decision: { operation: 'TYPE_TEXT' as const, target: 'e1', decisionMs: 0 }, element, optionLabel: undefined, observation }
}

const checklist: ChecklistReport = {
  source: 'model',
  items: [{ description: 'Signed in', check: { kind: 'text_visible', text: 'Welcome' }, status: 'done' }],
}
const success = { status: 'success' as const, verified: true, checklist }

async function saved(cacheOption: unknown, type: string): Promise<GoalEntry> {
  const store = new Map<string, unknown>()
  const settings = resolveCache(cacheOption === undefined ? store : { store, ...(cacheOption as object) })
  if (!settings) throw new Error('no cache')
  const replay = await GoalReplay.open(settings, 'Sign in', URL)
  replay.record(typed(type), 'secret-value', false)
  await replay.save(success, false)
  if (store.size !== 1) throw new Error(`expected one entry, found ${store.size}`)
  return [...store.values()][0] as GoalEntry
}

test('a password field’s value is never stored, nor the checklist of that run', async (t) => {
  const entry = await saved(undefined, 'password')
  t.is(entry.steps[0]!.text, undefined)
  t.is(entry.checklist, undefined)
  t.false(JSON.stringify(entry).includes('secret-value'))
})

test('other typed values and the checklist are stored unless typedValues is false', async (t) => {
  const kept = await saved(undefined, 'email')
  t.is(kept.steps[0]!.text, 'secret-value')
  t.deepEqual(kept.checklist, [{ description: 'Signed in', check: { kind: 'text_visible', text: 'Welcome' } }])
  t.is(kept.page, 'https://shop.test/login/:id')
  const dropped = await saved({ typedValues: false }, 'email')
  t.is(dropped.steps[0]!.text, undefined)
  t.is(dropped.checklist, undefined)
})

test('only a verified success is stored, unless the caller turned the checklist off', async (t) => {
  const store = new Map<string, unknown>()
  const settings = resolveCache(store) as Exclude<ReturnType<typeof resolveCache>, false>
  const replay = await GoalReplay.open(settings, 'Sign in', URL)
  replay.record(typed('email'), 'a@b.example', false)
  await replay.save({ ...success, status: 'error' }, false)
  await replay.save({ ...success, verified: false }, false)
  t.is(store.size, 0)
  await replay.save({ ...success, verified: false }, true)
  t.is(store.size, 1)
  t.is(replay.status(success), 'miss')
})
