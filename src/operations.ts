import type { Operation } from '../types/index.d.ts'

// The operations a decision can choose, and everything the agent needs to know about each: the
// request, the executor, the goal loop, the checklist and the local model all read this table, so
// an operation is added or changed here. It imports nothing of the agent's, so every folder may use it.

/** What can be done to a control; the collector lists these per element. */
export type ElementCapability = 'click' | 'type' | 'select' | 'submit'

/**
 * What an operation acts on: an element offering a capability (for `select`, one of its options), a
 * scroll target (`page` or a container) that can move in a direction, or nothing.
 */
export type OperationTarget =
  | { kind: 'element'; capability: ElementCapability }
  | { kind: 'scroll'; direction: 'up' | 'down' }
  | { kind: 'none' }

export interface OperationSpec {
  target: OperationTarget
  /** The operation question's criterion for it; null where the name says enough. */
  criterion: string | null
  /** What its target question asks, after "If the operation is …: ". */
  targetQuestion?: string
  /** Input on an element: the risk answer is read, and it is counted as input for budgets. */
  input: boolean
  /** Activates a control (a typed value alone still needs one): it moves a goal on. */
  activates: boolean
  /** Ends the run: DONE when the goal is met, BLOCKED when it cannot be. */
  ends: boolean
}

// The order is the request's: target questions follow it, and the operation question lists the
// operations with targets first, then the others.
export const OPERATIONS = {
  CLICK: {
    target: { kind: 'element', capability: 'click' },
    criterion: null,
    targetQuestion: 'which element should be clicked? IDs are state.elements[].id.',
    input: true,
    activates: true,
    ends: false,
  },
  TYPE_TEXT: {
    target: { kind: 'element', capability: 'type' },
    criterion: 'type a value into a field',
    targetQuestion: 'which field should be typed into? IDs are state.elements[].id.',
    input: true,
    activates: false,
    ends: false,
  },
  SUBMIT: {
    target: { kind: 'element', capability: 'submit' },
    criterion: 'submit a form',
    targetQuestion: 'which form control should be submitted? IDs are state.elements[].id.',
    input: true,
    activates: true,
    ends: false,
  },
  SELECT: {
    target: { kind: 'element', capability: 'select' },
    criterion: 'choose an option of a dropdown or list',
    targetQuestion: 'which option should be chosen? Each ID is element:option, from state.elements[].id and its options[].id.',
    input: true,
    activates: true,
    ends: false,
  },
  SCROLL_DOWN: {
    target: { kind: 'scroll', direction: 'down' },
    criterion: null,
    targetQuestion: 'what should be scrolled down: "page" or a container from state.page.scroll?',
    input: false,
    activates: false,
    ends: false,
  },
  SCROLL_UP: {
    target: { kind: 'scroll', direction: 'up' },
    criterion: null,
    targetQuestion: 'what should be scrolled up: "page" or a container from state.page.scroll?',
    input: false,
    activates: false,
    ends: false,
  },
  WAIT: { target: { kind: 'none' }, criterion: 'wait for the page to finish loading or changing', input: false, activates: false, ends: false },
  DONE: {
    target: { kind: 'none' },
    criterion: 'the goal is visibly met on this page (with state.checklist: every item of it is done)',
    input: false,
    activates: false,
    ends: true,
  },
  BLOCKED: { target: { kind: 'none' }, criterion: 'the goal cannot be reached from here', input: false, activates: false, ends: true },
} as const satisfies Record<Operation, OperationSpec>

// The public `Operation` union is written out in types/index.d.ts; this fails to compile when the
// table and it name different operations.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type TableNamesEveryOperation = Holds<SameKeys<keyof typeof OPERATIONS, Operation>>

/** Every operation, in the table's order. */
export const OPERATION_NAMES = Object.keys(OPERATIONS) as Operation[]

/** The operations carried out on the page: all but those that end the run. */
export type PageOperation = { [K in Operation]: (typeof OPERATIONS)[K]['ends'] extends true ? never : K }[Operation]

export function specOf(operation: Operation): OperationSpec {
  return OPERATIONS[operation]
}

/** Operations chosen with an element of the observation as target. */
export function onElement(operation: Operation): boolean {
  return specOf(operation).target.kind === 'element'
}

/** The names of the operations with a property, for sets checked by name (recorded actions carry strings). */
export function operationsWhere(test: (spec: OperationSpec) => boolean): ReadonlySet<string> {
  return new Set(OPERATION_NAMES.filter((operation) => test(specOf(operation))))
}
