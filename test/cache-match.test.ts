import test from 'ava'
import { likeness, matchTarget, recordTarget } from '../src/cache/match-target.ts'
import { parseGoalEntry } from '../src/cache/goal-entry.ts'
import type { ObservedElement } from '../src/collector/observation.ts'
import { nameByPosition } from '../src/collector/positional-names.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// Finding a recorded target in a new observation: exact first, then one clear best by score, else
// no match (the model decides).

const URL = 'https://shop.test/product/1'
const form = { name: 'Cart', fields: {} }

function page(elements: ObservedElement[]) {
  return pageObservation({ url: URL, elements })
}

const addToCart = observedElement('e3', { name: 'Add to cart', form, nearby: 'Trail shoe', rect: { x: 100, y: 300, width: 120, height: 40 } })
const wishlist = observedElement('e4', { name: 'Add to wishlist', nearby: 'Trail shoe', rect: { x: 240, y: 300, width: 120, height: 40 } })
const home = observedElement('e1', { name: 'Home', tag: 'a', role: 'link', rect: { x: 0, y: 0, width: 60, height: 20 } })
const recorded = recordTarget(addToCart, page([home, addToCart, wishlist]))

test('the same element under another action ID matches exactly', (t) => {
  const moved = { ...addToCart, id: 'e9', nodeId: 'n-other', fingerprint: 'other' }
  const found = matchTarget(recorded, page([wishlist, moved, home]), 'click')
  t.like(found, { how: 'exact', element: { id: 'e9' } })
})

test('a renamed button in the same place and form matches by score', (t) => {
  const renamed = { ...addToCart, id: 'e7', name: 'Add to basket' }
  const found = matchTarget(recorded, page([home, renamed, wishlist]), 'click')
  t.like(found, { how: 'scored', element: { id: 'e7' } })
})

test('no candidate like the recorded one is a miss, and so are two equally like it', (t) => {
  t.true('miss' in matchTarget(recorded, page([home]), 'click'))
  const twinA = { ...addToCart, id: 'e5', name: 'Add to bag', form: undefined, nearby: 'Other' }
  const twinB = { ...twinA, id: 'e6' }
  const found = matchTarget(recorded, page([twinA, twinB]), 'click')
  t.true('miss' in found)
})

test('equal identities are told apart by fingerprint, then by recorded place', (t) => {
  const first = observedElement('e1', { name: 'Remove', nearby: 'Row', fingerprint: 'a' })
  const second = observedElement('e2', { name: 'Remove', nearby: 'Row', fingerprint: 'b' })
  const target = recordTarget(second, page([first, second]))
  t.is(target.ordinal, 1)
  t.like(matchTarget(target, page([{ ...first, id: 'e8' }, { ...second, id: 'e9' }]), 'click'), { element: { id: 'e9' } })
  const changed = [{ ...first, id: 'e8', fingerprint: 'x' }, { ...second, id: 'e9', fingerprint: 'y' }]
  t.like(matchTarget(target, page(changed), 'click'), { how: 'exact', element: { id: 'e9' } })
})

test('a candidate whose name shares no word with the recorded one is no match, however alike the rest', (t) => {
  const deleting = { ...addToCart, id: 'e8', name: 'Delete' }
  t.like(matchTarget(recorded, page([home, deleting]), 'click'), { miss: 'no element\'s name shares a word with "Add to cart" (button)' })
})

test('a control named by its place is recorded as unnamed: the field named so on the next page is not taken for it', (t) => {
  const unnamed = (id: string, nearby: string) => observedElement(id, { role: 'textbox', name: '', tag: 'input', type: 'text', nearby, operations: ['type'], fingerprint: nearby })
  const before = [unnamed('e1', 'Coupon')]
  nameByPosition(before)
  const target = recordTarget(before[0]!, page(before))
  t.is(target.name, '')
  // Another unnamed field above it takes its positional name; the coupon field is found by its nearby text.
  const after = [unnamed('e1', 'Gift card'), unnamed('e2', 'Coupon')]
  nameByPosition(after)
  t.deepEqual(after.map((element) => element.name), ['text field 1', 'text field 2'])
  t.like(matchTarget(target, page(after), 'type'), { how: 'exact', element: { id: 'e2' } })
})

test('only elements offering the operation are candidates', (t) => {
  const field = observedElement('e3', { ...addToCart, operations: ['type'] })
  t.true('miss' in matchTarget(recorded, page([field]), 'click'))
})

test('likeness is word overlap, case-insensitive', (t) => {
  t.is(likeness('Add to cart', 'add  TO cart'), 1)
  t.is(likeness('Add to cart', 'Add to basket'), 0.5)
  t.is(likeness('', ''), 1)
  t.is(likeness('Search', ''), 0)
})

test('a stored entry that is not one of ours is refused with the reason', (t) => {
  const step = { operation: 'CLICK', page: { shape: URL, title: '' } }
  const entry = { version: 1, kind: 'goal', goal: 'g', page: URL, steps: [step], savedAt: '' }
  t.like(parseGoalEntry(entry, 'g'), { invalid: 'steps.0: CLICK without a target' })
  t.regex((parseGoalEntry({ ...entry, version: 2 }, 'g') as { invalid: string }).invalid, /^version/)
  t.like(parseGoalEntry({ ...entry, steps: [{ ...step, operation: 'WAIT' }] }, 'other'), { invalid: 'the entry was written for another goal' })
  t.true('entry' in parseGoalEntry({ ...entry, steps: [{ ...step, operation: 'WAIT' }] }, 'g'))
  t.true('invalid' in parseGoalEntry('{not json', 'g'))
  t.true('invalid' in parseGoalEntry({ ...entry, steps: [{ ...step, operation: 'WAIT' }], checklist: [{ description: 'x', check: { kind: 'click' } }] }, 'g'))
})

test('nearby text tells repeated controls apart but is not required on another page of the template', (t) => {
  const rowA = observedElement('e1', { name: 'Remove', nearby: 'Socks', fingerprint: 'a' })
  const rowB = observedElement('e2', { name: 'Remove', nearby: 'Shoes', fingerprint: 'b' })
  const target = recordTarget(rowB, page([rowA, rowB]))
  const reordered = [{ ...rowB, id: 'e5', fingerprint: 'x' }, { ...rowA, id: 'e6', fingerprint: 'y' }]
  t.like(matchTarget(target, page(reordered), 'click'), { how: 'exact', element: { id: 'e5' } })
  const lone = observedElement('e7', { name: 'Remove', nearby: 'Hats' })
  t.like(matchTarget(target, page([lone]), 'click'), { how: 'exact', element: { id: 'e7' } })
})
