import { hasAttr, localNameOf, matchesSelector, parentElementOf, queryAll } from './dom-safe.ts'
import { attr } from './dom.ts'
import { callCache, remembered } from './layout.ts'

// Controls that a page made clickable by script, found from what the browser shows of them without
// running anything in the page's world. The signals:
// - a click, press, touch or drag listener on the element itself (Node reads them through CDP and hands
//   the nodes over), `draggable="true"`, a handler attribute (`onclick`, `onmousedown`, …), or the attribute a framework's
//   delegated handler looks for (`data-action`, `data-toggle`, `jsaction`, Alpine's `@click`, htmx's
//   `hx-get`, …);
// - `tabindex` ≥ 0 (focusable on purpose), a role that is clickable only with another signal
//   (`gridcell`, `row`, `listitem`, …), or an ARIA state of a control (`aria-pressed`,
//   `aria-expanded`, `aria-checked`);
// - a pointer cursor that its parent does not have: the one signal left by a handler delegated to an
//   ancestor (jQuery's `.on(selector, …)`, React's root listener).
// An element that only holds other controls (a list whose `ul` carries the delegated listener, an
// app's root) is a container, not a control: a listener or tabindex alone does not make it one.

/** Handler attributes, and those frameworks dispatch a delegated click by. */
const HANDLER_ATTRIBUTES = [
  'onclick', 'onmousedown', 'onmouseup', 'onpointerdown', 'onpointerup', 'ontouchstart',
  'data-action', 'data-toggle', 'data-bs-toggle', 'data-href', 'data-url', 'data-link', 'jsaction', 'ng-click',
  'data-ng-click', 'x-on:click', '@click', 'hx-get', 'hx-post',
]

/** Handler attributes and ARIA hints read in one query per tree, far cheaper than per element. */
const HINTS = [
  // `x-on:click` and `@click` need their punctuation escaped in a selector.
  ...HANDLER_ATTRIBUTES.map((name) => `[${name.replace(/[:@]/g, '\\$&')}]`),
  '[tabindex]', '[aria-pressed]', '[aria-expanded]', '[aria-checked]', '[aria-selected]', '[role]', '[draggable]',
].join(',')

/** Roles that make an element a control only together with another signal (a grid's cell, a list's row). */
export const SIGNAL_ROLES = new Set(['gridcell', 'row', 'cell', 'columnheader', 'rowheader', 'listitem', 'heading', 'img', 'presentation', 'none', 'generic'])

/** Elements of a page that never stand for a control of their own, whatever their cursor or listeners. */
const NEVER = new Set(['html', 'body', 'head', 'main', 'form', 'iframe', 'frame', 'label', 'option', 'optgroup', 'datalist', 'legend', 'fieldset', 'canvas'])

const hinted = callCache<Node, Set<Element>>()
const cursors = callCache<Element, boolean>()

/** The elements of a tree that carry a handler attribute or an ARIA hint (read once per call and tree). */
export function hintedIn(root: Document | ShadowRoot): Set<Element> {
  let found = hinted.get(root)
  if (!found) {
    found = new Set(Array.from(root.querySelectorAll(HINTS)))
    hinted.set(root, found)
  }
  return found
}

/** The same for one subtree, its root included: a walk of what changed reads only that part. */
export function hintedUnder(root: Element): Set<Element> {
  const found = new Set(Array.from(queryAll(root, HINTS)))
  if (matchesSelector(root, HINTS)) found.add(root)
  return found
}

export function hasHandlerAttribute(el: Element): boolean {
  return HANDLER_ATTRIBUTES.some((name) => hasAttr(el, name))
}

/** Focusable on purpose (`tabindex` ≥ 0): a person can tab to it and type to it. */
export function focusable(el: Element): boolean {
  const value = attr(el, 'tabindex')
  return value !== '' && Number(value) >= 0
}

/**
 * Why an element that is not a control by its tag or role may be one by script: 'listener' (its own
 * listener or handler attribute), 'focusable', 'state' (an ARIA state of a control), or null.
 */
export function scriptSignal(el: Element, listened: ReadonlySet<Element>, hints: ReadonlySet<Element>): 'listener' | 'focusable' | 'state' | null {
  // A canvas is the page's drawing, except one a person can tab to whose keys the page reads (a game's).
  if (NEVER.has(localNameOf(el)) && !(localNameOf(el) === 'canvas' && listened.has(el) && focusable(el))) return null
  if (listened.has(el)) return 'listener'
  if (!hints.has(el)) return null
  // A draggable element is picked up and dropped by a person: its dragstart handler needs no click.
  if (hasHandlerAttribute(el) || attr(el, 'draggable') === 'true') return 'listener'
  if (focusable(el)) return 'focusable'
  if (hasAttr(el, 'aria-pressed') || hasAttr(el, 'aria-expanded') || hasAttr(el, 'aria-checked')) return 'state'
  return null
}

/** Whether the element draws the pointer cursor (computed style, read once per call). */
export function pointerCursor(el: Element): boolean {
  return remembered(cursors, el, (node) => getComputedStyle(node).cursor === 'pointer')
}

/**
 * The element a pointer cursor over `el` belongs to: the top of the run of pointer-cursor ancestors
 * (its parent draws another cursor). Null when `el` has no pointer cursor, when the run reaches a
 * control that is offered anyway (the text of a link inherits its cursor), or a part of the page that
 * never stands for a control.
 */
export function pointerOwner(el: Element, isControl: (node: Element) => boolean): Element | null {
  let top: Element | null = null
  for (let node: Element | null = el; node; node = parentElementOf(node)) {
    if (!pointerCursor(node)) break
    if (isControl(node)) return null
    top = node
  }
  if (!top || NEVER.has(localNameOf(top))) return null
  return top
}
