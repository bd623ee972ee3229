import test from 'ava'
import { OPERATION_NAMES, OPERATIONS, onElement, operationsWhere } from '../src/operations.ts'

test('the table lists the operations in the order the request offers them', (t) => {
  t.deepEqual(OPERATION_NAMES, ['CLICK', 'TYPE_TEXT', 'SUBMIT', 'SELECT', 'SCROLL_DOWN', 'SCROLL_UP', 'WAIT', 'DONE', 'BLOCKED'])
})

test('input is what is done to an element, and every operation that activates a control is input', (t) => {
  t.deepEqual([...operationsWhere((spec) => spec.input)], OPERATION_NAMES.filter(onElement))
  t.deepEqual([...operationsWhere((spec) => spec.activates)], ['CLICK', 'SUBMIT', 'SELECT'])
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
