import test from 'ava'
import { DRAG_MOVES, FOCUSED_TARGET, OPERATION_NAMES, OPERATIONS, onElement, operationsWhere, PRESS_KEYS, readMove } from '../src/operations.ts'

test('the table lists the operations in the order the request offers them', (t) => {
  t.deepEqual(OPERATION_NAMES, ['CLICK', 'TYPE_TEXT', 'SUBMIT', 'SELECT', 'PRESS', 'HOVER', 'DRAG', 'SCROLL_DOWN', 'SCROLL_UP', 'WAIT', 'DONE', 'BLOCKED'])
})

test('PRESS asks for a key of a fixed list and may go to what holds focus; DRAG asks where to', (t) => {
  t.like(OPERATIONS.PRESS, { detail: { kind: 'key', question: 'press_key' }, target: { kind: 'element', capability: 'press', focused: true } })
  t.like(OPERATIONS.DRAG, { detail: { kind: 'destination', question: 'drag_to' }, target: { kind: 'element', capability: 'drag' } })
  t.true(PRESS_KEYS.includes('Escape') && PRESS_KEYS.includes('Control+A') && PRESS_KEYS.includes('Shift+Tab'))
  t.false(onElement('PRESS', FOCUSED_TARGET))
  t.true(onElement('PRESS', 'e3'))
  t.true(onElement('CLICK', FOCUSED_TARGET), 'only PRESS takes the focused target')
})

test('a DRAG move reads back as a direction and a share of the track; anything else is an element', (t) => {
  t.is(DRAG_MOVES.length, 12)
  t.deepEqual(readMove('right-25'), { dx: 1, dy: 0, share: 0.25 })
  t.deepEqual(readMove('up-50'), { dx: 0, dy: -1, share: 0.5 })
  t.is(readMove('right-30'), null, 'only the offered shares')
  t.is(readMove('e4'), null)
})

test('input is what is done to an element, and every operation that activates a control is input', (t) => {
  t.deepEqual([...operationsWhere((spec) => spec.input)], OPERATION_NAMES.filter((operation) => onElement(operation, undefined)))
  t.deepEqual([...operationsWhere((spec) => spec.activates)], ['CLICK', 'SUBMIT', 'SELECT', 'PRESS', 'DRAG'])
})

test('only DONE and BLOCKED end the run, and they take no target', (t) => {
  t.deepEqual([...operationsWhere((spec) => spec.ends)], ['DONE', 'BLOCKED'])
  t.is(OPERATIONS.DONE.target.kind, 'none')
  t.is(OPERATIONS.BLOCKED.target.kind, 'none')
})

test('every operation with a target has a target question, and no other does', (t) => {
  for (const operation of OPERATION_NAMES) {
    const spec: { target: { kind: string }; targetQuestion?: string } = OPERATIONS[operation]
    t.is(spec.targetQuestion !== undefined, spec.target.kind !== 'none', operation)
  }
})
