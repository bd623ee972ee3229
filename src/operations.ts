import type { Operation } from '../types/index.d.ts'

// The operations a decision can choose, and everything the agent needs to know about each: the
// request, the executor, the goal loop, the checklist and the local model all read this table, so
// an operation is added or changed here. It imports nothing of the agent's, so every folder may use it.

/**
 * What can be done to a control; the collector lists these per element. `press`: it takes keys (a
 * field, a listbox, a menu, a grid, a slider…); `hover`: hovering it shows something (a menu, a
 * tooltip); `drag`: it can be picked up (a draggable item, a slider's thumb); `drop`: something
 * dragged can be put on it; `keys`: it reads key presses and holds no value (a terminal, a game's
 * canvas), so typed text goes to it as keys, one by one.
 */
export type ElementCapability = 'click' | 'type' | 'select' | 'submit' | 'press' | 'hover' | 'drag' | 'drop' | 'keys'

/**
 * The keys PRESS may press, and nothing else: a model never writes keys as free text (a hostile page
 * could make it "type" a shortcut). The named ones are what a person presses in a field, a popup or a
 * widget, and are always offered.
 */
export const NAMED_KEYS = [
  'Enter', 'Escape', 'Tab', 'Shift+Tab', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight',
  'Home', 'End', 'PageUp', 'PageDown', 'Backspace', 'Delete', 'Space', 'Control+A',
] as const

/** Every printable ASCII character but the space (which is `Space`): a key a game, a terminal or a page's shortcut reads. */
const CHARACTERS = Array.from({ length: 0x7e - 0x20 }, (_, index) => String.fromCharCode(0x21 + index))
/** The common shortcuts: a modifier held with a letter (`Control+K` opens a command palette). */
const SHORTCUTS = ['Control', 'Meta', 'Control+Shift'].flatMap((modifiers) => [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter) => `${modifiers}+${letter}`))

/**
 * Every key PRESS may press: the named keys, then the characters and the shortcuts, which the request
 * offers only where something on the page takes keys outside a field (they would only lengthen it elsewhere).
 */
export const PRESS_KEYS: readonly string[] = [...new Set<string>([...NAMED_KEYS, ...CHARACTERS, ...SHORTCUTS])]
/** A key of PRESS_KEYS: checked with `isPressKey` wherever one is read from outside (a model, a cache file). */
export type PressKey = string

const PRESSABLE: ReadonlySet<string> = new Set(PRESS_KEYS)

export function isPressKey(key: string): key is PressKey {
  return PRESSABLE.has(key)
}

/** The target of PRESS that is no element: the key goes to whatever holds focus now. */
export const FOCUSED_TARGET = 'page'

/**
 * Where DRAG may move a control besides onto another one: a direction and a share (in percent) of
 * the control's track (a slider's width) or, for anything else, of its own size. Three steps each:
 * PRESS with the arrow keys tunes a slider finer.
 */
export const DRAG_MOVES = (['left', 'right', 'up', 'down'] as const).flatMap((direction) => [10, 25, 50].map((share) => `${direction}-${share}`))

/** A DRAG move read back: a direction and a share of the track, or null for an element ID. */
export function readMove(to: string): { dx: number; dy: number; share: number } | null {
  const match = /^(left|right|up|down)-(\d+)$/.exec(to)
  if (!match || !DRAG_MOVES.includes(to)) return null
  const sign = match[1] === 'left' || match[1] === 'up' ? -1 : 1
  const horizontal = match[1] === 'left' || match[1] === 'right'
  return { dx: horizontal ? sign : 0, dy: horizontal ? 0 : sign, share: Number(match[2]) / 100 }
}

/**
 * What an operation acts on: an element offering a capability (for `select`, one of its options;
 * with `focused`, also `page`: whatever holds focus), a scroll target (`page` or a container) that
 * can move in a direction, or nothing.
 */
export type OperationTarget =
  | { kind: 'element'; capability: ElementCapability; focused?: true }
  | { kind: 'scroll'; direction: 'up' | 'down' }
  | { kind: 'none' }

/**
 * The second question an operation asks besides its target: which key (from PRESS_KEYS), or where to
 * (an element offering `drop`, or one of DRAG_MOVES). Its answer is the decision's `key` or `to`.
 */
export type OperationDetail =
  | { kind: 'key'; question: string; instructions: string }
  | { kind: 'destination'; question: string; instructions: string }

export interface OperationSpec {
  target: OperationTarget
  detail?: OperationDetail
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
  /** How long the page must stay quiet after it before it is observed, when longer than the executor's default. */
  quietMs?: number
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
    // Said outright: helpers playing the model asked whether typing adds to a value, and answered "" to empty a field.
    criterion:
      'type a value into a field, in place of what it holds (the value is written next; to empty a field, PRESS Control+A, then Backspace); into an element that reads keys and is no field (a terminal), the text is pressed key by key',
    targetQuestion: 'which field, or element that reads keys, should be typed into? IDs are state.elements[].id.',
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
    targetQuestion:
      'which option should be chosen? Each ID is element:option, from state.elements[].id and its options[].id. On an element with state.multiple, choosing an option adds it to the others chosen, or removes it when it is chosen already.',
    input: true,
    activates: true,
    ends: false,
  },
  PRESS: {
    target: { kind: 'element', capability: 'press', focused: true },
    detail: {
      kind: 'key',
      question: 'press_key',
      instructions:
        'If the operation is PRESS: which key should be pressed? Enter, Escape, Tab, arrows, Space… as a person would in that field or widget; where the page reads keys itself, also a character (j, ?) or a shortcut (Control+K).',
    },
    criterion: 'press a key in a field or widget (Enter without submitting a form, Escape to close, arrows to move, Tab, Backspace…), or a page\'s shortcut',
    targetQuestion: `which element should receive the key? IDs are state.elements[].id; "${FOCUSED_TARGET}" sends it to what holds focus now (state.elements[].focused), or to the page itself when no element holds it.`,
    input: true,
    activates: true,
    ends: false,
  },
  HOVER: {
    target: { kind: 'element', capability: 'hover' },
    criterion: 'move the pointer over a control to open its menu or tooltip, without pressing',
    targetQuestion: 'which element should the pointer rest on? IDs are state.elements[].id.',
    input: true,
    activates: false,
    ends: false,
    // Menus and tooltips often open after a hover-intent delay (100–300 ms), so that a pointer passing
    // by does not open them: the page is observed once it has been quiet for longer than that.
    quietMs: 350,
  },
  DRAG: {
    target: { kind: 'element', capability: 'drag' },
    detail: {
      kind: 'destination',
      question: 'drag_to',
      instructions:
        'If the operation is DRAG: where should it be dropped? An element ID from state.elements[].id, or a move "<left|right|up|down>-<percent>" of a slider\'s track (of the item\'s size otherwise).',
    },
    criterion: 'drag a control (a list item, a slider, a card) onto another or along its track',
    targetQuestion: 'which element should be dragged? IDs are state.elements[].id.',
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

/** Whether a decision's target must be an element of the observation: PRESS on `page` has none. */
export function onElement(operation: Operation, target: string | undefined): boolean {
  const spec = specOf(operation).target
  return spec.kind === 'element' && !(spec.focused && target === FOCUSED_TARGET)
}

/** The names of the operations with a property, for sets checked by name (recorded actions carry strings). */
export function operationsWhere(test: (spec: OperationSpec) => boolean): ReadonlySet<string> {
  return new Set(OPERATION_NAMES.filter((operation) => test(specOf(operation))))
}

/** One operation on one target of an observation, as exclusions name it: `CLICK:e4`, `SCROLL_DOWN:page`. */
export function exclusionKey(operation: Operation, target: string): string {
  return `${operation}:${target}`
}
