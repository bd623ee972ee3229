import type { ElementHandle } from 'puppeteer-core'

// The data the collector hands to the decision client and the executor.

import type { Rect } from '../base/rect.ts'
import type { Omitted } from '../clip.ts'
import type { ElementCapability } from '../operations.ts'
import type { ElementState } from '../page/types.ts'

/** What can be done to a control; the operations table says which operation uses which. */
export type ElementOperation = ElementCapability

export type { ElementState } from '../page/types.ts'

export interface SelectOption {
  /** Option ID offered to the model for SELECT, unique within the element, e.g. `o2`. */
  id: string
  label: string
  value: string
  selected: boolean
  /** The label of the `<optgroup>` it is in. */
  group?: string
}

export interface ObservedElement {
  /** Snapshot action ID (`e1`, `e2`, …), fresh every observation. */
  id: string
  /** Persistent node ID: the same DOM node keeps it across observations. Unique across frames. */
  nodeId: string
  /** Index into `Observation.frames`. */
  frame: number
  role: string
  name: string
  tag: string
  /** Input type, for inputs. */
  type?: string
  /**
   * The value exactly as the field holds it (line breaks and white space as they are), whole up to
   * `LIMITS.keptValueLimit`; of a longer one, the part around the part shown. `shownValue` gives what a request shows.
   */
  value?: string
  /** Characters of the value before and after `value`, when it is a part. */
  valueOmitted?: Omitted
  /** Where in `value` the part the decision request shows starts (around the caret, or in view), when not at its start. */
  shownFrom?: number
  state?: ElementState
  /**
   * `layout` when the page names the field nowhere and its name was read from the text beside it;
   * `icon` when its name was read from the icon that draws it (an image's file name, a class list);
   * `position` when nothing names it and its name is its kind and place (src/collector/positional-names.ts).
   */
  nameFrom?: 'layout' | 'icon' | 'position'
  /** `k of n` when n offered controls have its role, name and nearby text: its place among them (src/collector/alike-controls.ts). */
  alike?: string
  /** A textarea or an editable region: its value may hold several lines. */
  multiline?: true
  operations: ElementOperation[]
  /** It holds keyboard focus: PRESS on `page` reaches it. */
  focused?: true
  /** A listener on it, on the way to it, or on its document or window follows the pointer: a click moves the pointer there first. */
  pointerFollowed?: true
  /** For select elements and listboxes. */
  options?: SelectOption[]
  /** The form this control belongs to and the current values of its other fields. */
  form?: { name: string; fields: Record<string, string> }
  /** Short text around the control (row, list item or closest heading). */
  nearby?: string
  /** Viewport rectangle of the top-level page, in CSS pixels. */
  rect: Rect
  /**
   * A digest of what the freshness guard compares: identity attributes, value, nearby text and
   * same-form values. Equal digests mean the executor may act.
   */
  fingerprint: string
}

export type BlockerKind = 'captcha' | 'password' | 'canvas' | 'file_input' | 'no_body'

export interface Blocker {
  kind: BlockerKind
  /** Index into `Observation.frames`. */
  frame: number
  /** What was seen, e.g. the matched CAPTCHA text. */
  text?: string
  rect: Rect
}

export interface ScrollTarget {
  /** `page`, or the ID of a tall scrollable container, e.g. `s1`. */
  id: string
  name: string
  up: boolean
  down: boolean
}

export interface ObservedFrame {
  url: string
  /** Same-origin with the top document or not. */
  crossOrigin: boolean
}

export interface Observation {
  url: string
  title: string
  /** Visible text of the viewport, in reading order, whitespace collapsed, at most 6,000 characters. */
  text: string
  elements: ObservedElement[]
  /** Controls left out by the 250-action cap. */
  omitted: number
  /** The most common names among the left-out controls, with counts (`Add ×212`). */
  omittedNames?: string[]
  blockers: Blocker[]
  /** The page first, then tall scroll containers. */
  scroll: ScrollTarget[]
  frames: ObservedFrame[]
  /** URLs of tabs opened since the previous observation. */
  popups: string[]
  /** Equal signatures mean nothing the agent can see changed. */
  signature: string
  /** The top document or its window listens for keys: the page reads key presses wherever focus is (its shortcuts). */
  keysOnPage?: true
}

/** An observation plus what the executor needs to act on it. */
export interface Snapshot {
  observation: Observation
  /** Retained handle per snapshot action ID, once `ready` has settled. */
  handles: Map<string, ElementHandle<Element>>
  /** Retained handle per scroll container ID (not the page), once `ready` has settled. */
  scrollHandles: Map<string, ElementHandle<Element>>
  /**
   * Settles (never rejects) once the handles are in: the observation is handed on as soon as the page
   * has reported, and the nodes it saw first are taken from the page while the model decides. A node
   * whose handle could not be taken has none: the freshness check finds its target stale ('node not taken').
   */
  ready: Promise<void>
  /** Releases every handle; called when the next snapshot replaces this one. */
  dispose(): Promise<void>
}
