import { attributeOf, childNodesOf, clientRects, hasAttr, matchesSelector, nodeTypeOf, shadowRootOf } from './dom-safe.ts'
import { attr, composedParent } from './dom.ts'
import { labelsOf, pressesThrough } from './labels.ts'
import { boxOf, placement, rendered, vh, vw } from './layout.ts'
import type { Rect } from '../base/rect.ts'
import type { Point } from './types.ts'

// Whether a person can see and reach an element: rendered, in the viewport, not hidden from users,
// and what hit-testing finds at its centre (through open shadow roots and labels).

export function round(rect: DOMRect): Rect {
  return { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) }
}

export function hiddenFromUsers(el: Element): boolean {
  for (let node: Node | null = el; node; node = composedParent(node)) {
    if (nodeTypeOf(node) !== 1) continue
    const element = node as Element
    if (attributeOf(element, 'aria-hidden') === 'true' || hasAttr(element, 'inert')) return true
  }
  return false
}

export function disabled(el: Element): boolean {
  if (attr(el, 'aria-disabled') === 'true') return true
  try {
    return matchesSelector(el, ':disabled')
  } catch {
    return false
  }
}

/** The slot that renders a text child of `host` found at the point, if any. */
function slotOfTextAt(host: Element, x: number, y: number): Element | null {
  const range = document.createRange()
  for (const child of Array.from(childNodesOf(host))) {
    if (nodeTypeOf(child) !== 3 || !(child as Text).assignedSlot) continue
    range.selectNodeContents(child)
    for (const box of Array.from(range.getClientRects())) {
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return (child as Text).assignedSlot
    }
  }
  return null
}

/** The element at a point, descending into open shadow roots. */
export function deepHit(x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y)
  while (hit) {
    const root = shadowRootOf(hit)
    if (!root) break
    const inner = root.elementFromPoint(x, y)
    if (inner && inner !== hit) {
      hit = inner
      continue
    }
    // A host is the answer when the point is on its own text, rendered through one of its slots.
    const slot = slotOfTextAt(hit, x, y)
    if (!slot) break
    hit = slot
  }
  return hit
}

/** Hit-testing at a point reaches `el`: the hit is `el`, inside it, or what a press on reaches it through (a label). */
function reaches(hit: Element | null, el: Element): boolean {
  for (let node: Node | null = hit; node; node = composedParent(node)) {
    if (node === el || pressesThrough(node, el)) return true
  }
  return false
}

export function clipToViewport(rect: DOMRect): { left: number; top: number; right: number; bottom: number } | null {
  const left = Math.max(rect.left, 0)
  const top = Math.max(rect.top, 0)
  const right = Math.min(rect.right, vw)
  const bottom = Math.min(rect.bottom, vh)
  return right > left && bottom > top ? { left, top, right, bottom } : null
}

export function centre(rect: DOMRect): Point | null {
  const part = clipToViewport(rect)
  return part ? [Math.round((part.left + part.right) / 2), Math.round((part.top + part.bottom) / 2)] : null
}

/** The least width and height of a part of a control that a cover leaves for a person to press. */
const UNCOVERED_PX = 4

/**
 * The centre of the largest part of the box (within the viewport) that lies outside the cover's box:
 * what a sticky bar or a banner over half of a control leaves showing. Null when the cover hides it all.
 */
function besideCover(rect: DOMRect, cover: Element): Point | null {
  const part = clipToViewport(rect)
  if (!part) return null
  const over = boxOf(cover)
  const strips = [
    { left: part.left, right: part.right, top: part.top, bottom: Math.min(part.bottom, over.top) },
    { left: part.left, right: part.right, top: Math.max(part.top, over.bottom), bottom: part.bottom },
    { left: part.left, right: Math.min(part.right, over.left), top: part.top, bottom: part.bottom },
    { left: Math.max(part.left, over.right), right: part.right, top: part.top, bottom: part.bottom },
  ]
  let best: (typeof strips)[number] | undefined
  let area = 0
  for (const strip of strips) {
    const width = strip.right - strip.left
    const height = strip.bottom - strip.top
    if (width >= UNCOVERED_PX && height >= UNCOVERED_PX && width * height > area) {
      best = strip
      area = width * height
    }
  }
  return best ? [Math.round((best.left + best.right) / 2), Math.round((best.top + best.bottom) / 2)] : null
}

/**
 * What covers the element where `hit` was found: the hit's outermost ancestor that does not hold the
 * element, so the whole sticky bar rather than the link in it that the hit test found.
 */
function coverOf(hit: Element, el: Element): Element {
  const holders = new Set<Node>()
  for (let node: Node | null = el; node; node = composedParent(node)) holders.add(node)
  let cover = hit
  for (let node = composedParent(hit); node && nodeTypeOf(node) === 1 && !holders.has(node); node = composedParent(node)) cover = node as Element
  return cover
}

export type Seen = { rect: DOMRect; at: Point } | { reason: string }

/**
 * Rendered, in the viewport, not hidden from users, and reached by hit-testing at its centre (or at a
 * line box's, or beside what covers the centre).
 */
export function visibility(el: Element): Seen {
  const rect = boxOf(el)
  if (rect.width <= 0 || rect.height <= 0) return { reason: 'hidden' }
  const at = centre(rect)
  if (!at) return { reason: 'offscreen' }
  if (!rendered(el) || hiddenFromUsers(el)) return { reason: 'hidden' }
  const hit = deepHit(at[0], at[1])
  if (reaches(hit, el)) return { rect, at }
  // A wrapped inline element's box centre can fall between its lines: try each line box.
  const lines = clientRects(el)
  if (lines.length > 1) {
    for (const box of Array.from(lines)) {
      const point = centre(box)
      if (point && reaches(deepHit(point[0], point[1]), el)) return { rect, at: point }
    }
  }
  // Partly under something (a sticky bar): pressed where it shows.
  const beside = hit ? besideCover(rect, coverOf(hit, el)) : null
  if (beside && reaches(deepHit(beside[0], beside[1]), el)) return { rect, at: beside }
  return { reason: 'covered' }
}

/** Some of the box is inside the viewport: the cheap first cut before any style or hit-test work. */
export function inViewport(el: Element): boolean {
  // Placed outside, or with no box to place (an element with `display: contents` has none either).
  const placed = placement(el)
  if (placed !== undefined && placed !== 'in') return false
  const rect = boxOf(el)
  return rect.bottom > 0 && rect.right > 0 && rect.top < vh && rect.left < vw
}

/**
 * A checkbox or radio as a person reaches it: the control itself, or else one of its labels (custom
 * controls hide or move the input and draw the label). Only boxes inside the viewport are tested further,
 * so the thousands of unrendered options of collapsed filter lists cost one box read each.
 */
export function labelledVisibility(el: Element): { node: Element; seen: Seen } {
  if (inViewport(el)) {
    const seen = visibility(el)
    if (!('reason' in seen)) return { node: el, seen }
  }
  for (const label of labelsOf(el)) {
    if (!inViewport(label)) continue
    const seen = visibility(label)
    if (!('reason' in seen)) return { node: label, seen }
  }
  return { node: el, seen: { reason: 'hidden' } }
}

/**
 * The controls of the labels the browser placed in the viewport, or has not placed yet: a checkbox
 * or radio placed outside it can still be reached through one of these, and through no other label.
 */
export function controlsOfPlacedLabels(labels: readonly Element[]): Set<Element> {
  const controls = new Set<Element>()
  for (const label of labels) {
    const placed = placement(label)
    if (placed !== undefined && placed !== 'in') continue
    const control = (label as HTMLLabelElement).control
    if (control) controls.add(control)
  }
  return controls
}

/** Whether the candidate may be in view: not placed outside it, or a checkbox or radio one of `throughLabels` may show. */
export function mayBeInView(el: Element, throughLabels: ReadonlySet<Element>): boolean {
  const placed = placement(el)
  return placed === undefined || placed === 'in' || throughLabels.has(el)
}
