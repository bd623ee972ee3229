import test from 'ava'
import type { Blocker, Observation, ObservedElement } from '../src/collector/observation.ts'
import { pageBlock } from '../src/goal/page-blockers.ts'
import { actionDetail } from '../src/goal/tell-step.ts'
import { identify, NoChangeGuard, pageChanged, StaleGuard } from '../src/goal/progress-guards.ts'
import { lockPage } from '../src/call/page-lock.ts'
import { UsageError } from '../src/errors.ts'
import type { Page } from 'puppeteer-core'
import { observedElement, pageObservation } from './helpers/observations.ts'

function element(id: string, nodeId: string, name = `button ${nodeId}`): ObservedElement {
  return observedElement(id, { nodeId, name })
}

function observation(signature: string, elements: ObservedElement[] = [], blockers: Blocker[] = []): Observation {
  return pageObservation({
    url: 'http://127.0.0.1/',
    title: 't',
    elements,
    blockers,
    scroll: [{ id: 'page', name: 'page', up: false, down: true }],
    frames: [{ url: 'http://127.0.0.1/', crossOrigin: false }, { url: 'http://localhost/frame', crossOrigin: true }],
    signature,
  })
}

const rect = { x: 0, y: 0, width: 10, height: 10 }

test('pageBlock maps blockers to reasons, the most specific first', (t) => {
  t.is(pageBlock(observation('a')), undefined)
  const captcha = pageBlock(observation('a', [], [{ kind: 'password', frame: 0, rect }, { kind: 'captcha', frame: 0, text: 'verify you are human', rect }]))
  t.is(captcha?.reason, 'captcha')
  t.regex(captcha!.message, /verify you are human/)
  t.is(pageBlock(observation('a', [], [{ kind: 'password', frame: 1, rect }]))?.reason, 'login_wall')
  t.regex(pageBlock(observation('a', [], [{ kind: 'password', frame: 1, rect }]))!.message, /in a frame \(http:\/\/localhost\/frame\)/)
  t.is(pageBlock(observation('a', [], [{ kind: 'canvas', frame: 0, rect }]))?.reason, 'unsupported_surface')
  // A file input is left out of the offered controls; it stops nothing (a CSV import below the form the goal needs).
  t.is(pageBlock(observation('a', [], [{ kind: 'file_input', frame: 0, rect }])), undefined)
})

test('a scroll\'s recent action names the first controls that came into view, at most five', (t) => {
  const before = observation('a', [element('e1', 'n1'), element('e2', 'n2')])
  const names = ['Flight 3', 'Flight 4', 'Flight 5', 'Flight 6', 'Flight 7', 'Flight 8']
  const after = observation('b', [element('e1', 'n2'), ...names.map((name, i) => element(`e${i + 2}`, `m${i}`, name))])
  t.is(actionDetail('SCROLL_DOWN', before, after, [], []), 'came into view: "Flight 3", "Flight 4", "Flight 5", "Flight 6", "Flight 7"')
  // Only a scroll says so: a click that shows more is told by what else it did.
  t.is(actionDetail('CLICK', before, after, [], []), undefined)
  t.is(actionDetail('SCROLL_DOWN', before, before, [], []), undefined)
})

test('NoChangeGuard stops at the third unchanged action in a row', (t) => {
  const guard = new NoChangeGuard()
  const page = observation('same', [element('e1', 'n1'), element('e2', 'n2'), element('e3', 'n3')])
  t.false(guard.record('CLICK', identify('e1', page.elements[0]), page, false))
  t.false(guard.record('CLICK', identify('e2', page.elements[1]), page, false))
  t.true(guard.record('CLICK', identify('e3', page.elements[2]), page, false))
})

test('NoChangeGuard: a changed page resets the count', (t) => {
  const guard = new NoChangeGuard()
  const page = observation('same', [element('e1', 'n1')])
  t.false(guard.record('CLICK', undefined, page, false))
  t.false(guard.record('CLICK', undefined, page, false))
  t.false(guard.record('CLICK', undefined, page, true))
  t.false(guard.record('CLICK', undefined, page, false))
  t.false(guard.record('CLICK', undefined, page, false))
  t.true(guard.record('CLICK', undefined, page, false))
})

test('focus moving is a change only for a key or a click into a field, not for a button a click focused', (t) => {
  const field = observedElement('e1', { nodeId: 'n1', name: 'Name', operations: ['click', 'type', 'press'] })
  const button = element('e2', 'n2')
  const before = observation('same', [field, button])
  const buttonFocused = observation('same', [field, { ...button, focused: true }])
  const fieldFocused = observation('same', [{ ...field, focused: true }, button])
  t.false(pageChanged('CLICK', button, before, buttonFocused))
  t.true(pageChanged('CLICK', field, before, fieldFocused))
  t.true(pageChanged('PRESS', field, fieldFocused, buttonFocused), 'Tab moved focus on')
  t.false(pageChanged('PRESS', field, fieldFocused, fieldFocused))
  t.true(pageChanged('HOVER', button, before, observation('other', [field, button])))
})

test('PRESS and DRAG stay offered on a target after a try that changed nothing: another key is another action', (t) => {
  const guard = new NoChangeGuard()
  const page = observation('same', [element('e1', 'n1')])
  guard.record('PRESS', identify('e1', page.elements[0]), page, false)
  guard.record('DRAG', identify('e1', page.elements[0]), page, false)
  t.deepEqual([...guard.exclusions(page)], [])
  t.true(guard.record('PRESS', identify('e1', page.elements[0]), page, false), 'the streak still ends the run')
})

test('NoChangeGuard keeps an unchanged target out of the offer until the page changes', (t) => {
  const guard = new NoChangeGuard()
  const before = observation('same', [element('e1', 'n1'), element('e2', 'n2')])
  guard.record('CLICK', identify('e2', before.elements[1]), before, false)
  guard.record('SCROLL_DOWN', identify('page', undefined), before, false)
  guard.record('HOVER', identify('e1', before.elements[0]), before, false)
  // The next observation of the same page may number its actions differently: node IDs are what count.
  // Only the operation that changed nothing is kept out: a hover that showed nothing leaves the click.
  const again = observation('same', [element('e5', 'n2'), element('e6', 'n1')])
  t.deepEqual([...guard.exclusions(again)].sort(), ['CLICK:e5', 'HOVER:e6', 'SCROLL_DOWN:page'])
  const changed = observation('other', [element('e1', 'n1'), element('e2', 'n2')])
  t.deepEqual([...guard.exclusions(changed)], [])
  // Once the page has changed, the old exclusions are gone even if it changes back.
  t.deepEqual([...guard.exclusions(again)], [])
})

test('StaleGuard stops at the third stale decision in a row on the same target', (t) => {
  const guard = new StaleGuard()
  const target = identify('e1', element('e1', 'n1', 'Buy'))
  t.false(guard.stale(target))
  t.false(guard.stale(target))
  t.true(guard.stale(target))
})

test('StaleGuard treats a re-rendered node with the same role and name as the same target', (t) => {
  const guard = new StaleGuard()
  t.false(guard.stale(identify('e1', element('e1', 'n1', 'Buy'))))
  t.false(guard.stale(identify('e1', element('e1', 'n7', 'Buy'))))
  t.true(guard.stale(identify('e4', element('e4', 'n9', 'Buy'))))
})

test('StaleGuard: another target or a fresh decision breaks the streak', (t) => {
  const guard = new StaleGuard()
  const buy = identify('e1', element('e1', 'n1', 'Buy'))
  const sell = identify('e2', element('e2', 'n2', 'Sell'))
  t.false(guard.stale(buy))
  t.false(guard.stale(buy))
  t.false(guard.stale(sell))
  t.false(guard.stale(buy))
  guard.fresh()
  t.false(guard.stale(buy))
  t.false(guard.stale(buy))
  t.true(guard.stale(buy))
})

test('lockPage refuses a second goal on the same page until released', (t) => {
  const page = {} as Page
  const lock = lockPage(page, 'goal')
  const error = t.throws(() => lockPage(page, 'goal'), { instanceOf: UsageError })
  t.regex(error!.message, /already running on this page/)
  t.notThrows(() => lockPage({} as Page, 'goal').release())
  lock.release()
  t.notThrows(() => lockPage(page, 'goal').release())
  t.deepEqual(Object.keys(page), [])
})
