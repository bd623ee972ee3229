import type { Rect } from '../base/rect.ts'
import type { Omitted } from '../clip.ts'
import type { ElementCapability } from '../operations.ts'

// What the page script is asked and what it sends back; the Node side imports these same types.

export type Point = [number, number]

export interface ObserveRequest {
  /** Token for this document if it has none yet; node IDs are `<token>:<n>`. */
  docToken: string
  maxElements: number
  textLimit: number
  nameLimit: number
  nearbyLimit: number
  /** Report this document's own scroller as a container (child frames). */
  frameScroller: boolean
  /** Per child iframe passed as an extra argument: points in the child's viewport to hit-test here. */
  childPoints: Point[][]
  /** Node IDs Node already holds a handle for: those nodes are not sent again. */
  held: string[]
  /** Under which key the page keeps the nodes Node does not hold, until Node takes them (`takeSentNodes`). */
  sendKey: string
  /** Characters of a field's value the decision request shows: enough to read a paragraph. */
  valueLimit: number
  /** Characters of a field's value reported: the text model rewrites a field from them. */
  keptValueLimit: number
  /** Scroll containers reported, innermost first. */
  maxScrollers: number
  /**
   * Per element Node saw a listener on (the extra arguments after the iframes), what for: letters
   * of `c` click or press, `h` hover, `d` drag (a press with no click, or dragstart), `o` drop, `m`
   * the pointer's moves (over, out, enter, leave, move).
   */
  listenedKinds: string[]
  /** The document or the window listens to the pointer's moves: every control is reached by moving the pointer first. */
  pointerEverywhere: boolean
}

export interface CheckRequest {
  nodeId: string
  fingerprint: string
  focused: boolean
  nameLimit: number
  nearbyLimit: number
  valueLimit: number
  keptValueLimit: number
}

/** The state a person reads from a control, from its own properties or its ARIA attributes. */
export interface ElementState {
  checked?: boolean | 'mixed'
  selected?: boolean
  expanded?: boolean
  pressed?: boolean | 'mixed'
  /** `aria-current`: what the control is the current one of (`page`, `step`, `date`, `true`…). */
  current?: string
  /** `aria-sort` of the column header it is or sits in: how the table is sorted by that column now. */
  sort?: 'ascending' | 'descending' | 'other'
  /** A select or listbox that takes several options. */
  multiple?: true
  /** A field whose text cannot be changed by typing (`readonly`, `aria-readonly`): it is offered a click only. */
  readonly?: true
  /** `aria-haspopup`: what a click opens (`menu`, `listbox`, `dialog`, `grid`, `tree`); `true` is read as `menu`, as ARIA says. */
  haspopup?: string
}

export interface RawElement {
  nodeId: string
  role: string
  name: string
  tag: string
  type?: string
  /** The value exactly as it is, or the part of it around the part shown when it is longer than the kept bound. */
  value?: string
  /** Characters of the value before and after `value`, when it is a part. */
  valueOmitted?: Omitted
  /** Where in `value` the part the decision request shows starts, when not at its start. */
  shownFrom?: number
  state?: ElementState
  /** `layout` when the markup names the field nowhere and the name was read beside it; `icon` when it was read from the icon that draws the control. */
  nameFrom?: 'layout' | 'icon'
  /** A textarea or an editable region: its value may hold several lines. */
  multiline?: true
  operations: ElementCapability[]
  /** It holds keyboard focus now. */
  focused?: true
  /** A listener on it or on the way to it follows the pointer: the click moves the pointer there first. */
  pointerFollowed?: true
  options?: Array<{ label: string; value: string; selected: boolean; group?: string }>
  form?: { name: string; fields: Record<string, string> }
  nearby?: string
  rect: Rect
  /** Where hit-testing reached it, in this frame's viewport. */
  at: Point
  fingerprint: string
  /** Node already holds a handle to this node (its ID was in `held`), so it is not in the result. */
  held?: true
}

export interface RawBlocker {
  kind: 'captcha' | 'password' | 'canvas' | 'file_input' | 'no_body'
  text?: string
  rect: Rect
  at: Point
}

export interface RawScroller {
  nodeId: string
  held?: true
  name: string
  /** Current scroll offset, for the page signature. */
  top: number
  up: boolean
  down: boolean
  rect: Rect
  at: Point
}

/** The iframe's content box in this frame's viewport, and whether it shows. */
export interface ChildReport extends Rect {
  visible: boolean
  /** Each requested point translated into this viewport, or null where it is not visible here. */
  points: Array<Point | null>
}

export interface FrameReport {
  url: string
  title: string
  doc: string
  text: string
  scroll: { x: number; y: number; up: boolean; down: boolean }
  elements: RawElement[]
  /** Visible controls beyond `maxElements`. */
  omitted: number
  /** The most common names among the omitted controls, with counts (`Add ×212`). */
  omittedNames?: string[]
  blockers: RawBlocker[]
  scrollers: RawScroller[]
  children: ChildReport[]
}

export interface CheckReport {
  /** The failed check, or null when the target is fresh. */
  reason: string | null
  at?: Point
}
