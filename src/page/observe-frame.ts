import { canvasSurface, captchaField, captchaPhrase, captchaWidget } from './blockers.ts'
import { attributeOf, childrenOf, localNameOf, parentElementOf, positionOf, textContentOf } from './dom-safe.ts'
import { attr, composedParent, inputType } from './dom.ts'
import { focusedElement, type InputSignals } from './capabilities.ts'
import { describe, fingerprintOf, subjectOf } from './describe-control.ts'
import { hitThrough } from './hit-test.ts'
import { usePlacements, vh, vw } from './layout.ts'
import { isCandidate } from './names.ts'
import { useHeadings } from './nearby.ts'
import { copyFound, walkChanges, type Found } from './page-walk.ts'
import { frameWatch, keepWalk, noteObserved, takeChanges, trustedPlacements } from './frame-watch.ts'
import { offer, type Visible } from './offer.ts'
import { focusable, pointerCursor, pointerOwner } from './script-controls.ts'
import { nodeIdOf, registry } from './node-ids.ts'
import { scrollersAround } from './scrollers.ts'
import { shorten } from './text.ts'
import type { FrameReport, ObserveRequest, RawBlocker, RawElement } from './types.ts'
import { keepReport, reusedReport, sendReport } from './reused-report.ts'
import { viewportText } from './viewport-text.ts'
import { controlsOfPlacedLabels, disabled, inViewport, labelledVisibility, mayBeInView, round, visibility } from './visibility.ts'

// One frame's observation: the controls a person could use now, the viewport's text, blockers,
// scroll containers, and what this frame shows of its child frames (`owners`, their iframes).

/** Whether a listener on the node or on its way up (through shadow hosts) follows the pointer. */
function followsPointer(node: Element, pointer: ReadonlySet<Element>): boolean {
  if (!pointer.size) return false
  for (let at: Node | null = node; at; at = composedParent(at)) if (pointer.has(at as Element)) return true
  return false
}

/** Containers whose children are items a person picks up one by one (a sortable list, a board's column). */
const LISTS = new Set(['ul', 'ol', 'tbody', 'div', 'section'])

/**
 * Adds the controls that only a pointer cursor shows (a handler delegated to an ancestor), found from
 * what is visible: the elements holding the viewport's text and its icons. A list drawn with the pointer
 * on its container offers its items, each its own control.
 */
function addPointerControls(found: Found, holders: Element[], listened: ReadonlySet<Element>): void {
  const known = new Set(found.candidates)
  const owners = new Set<Element>()
  const isControl = (node: Element) => known.has(node)
  for (const el of holders) {
    const owner = pointerOwner(el, isControl)
    if (owner) owners.add(owner)
  }
  for (const el of found.leaves) {
    if (!inViewport(el)) continue
    const owner = pointerOwner(el, isControl)
    if (owner) owners.add(owner)
  }
  for (const el of [...holders, ...found.leaves]) if (iconInside(el, known) && inViewport(el)) owners.add(el)
  if (!owners.size) return
  const added: Element[] = []
  for (const owner of owners) {
    for (const control of listened.has(owner) ? [owner] : itemsOf(owner)) {
      if (known.has(control)) continue
      known.add(control)
      added.push(control)
      found.signals.set(control, 'pointer')
    }
  }
  found.candidates = inDocumentOrder(found.candidates, added)
}

const WORDS = /[\p{L}\p{N}]/u

/**
 * An icon with a label of its own (a card's "⋮" titled "More actions for Invoices", a row's "×")
 * inside a larger clickable that says more: a person sees a control of its own. Inside a native
 * control (an icon in a link or button) it is only part of that control.
 */
function iconInside(el: Element, known: ReadonlySet<Element>): boolean {
  if (known.has(el) || !pointerCursor(el) || !(attr(el, 'title') || attr(el, 'aria-label'))) return false
  if (WORDS.test(textContentOf(el) ?? '')) return false
  for (let node = parentElementOf(el); node && pointerCursor(node); node = parentElementOf(node)) {
    if (isCandidate(node)) return false
    if (WORDS.test(textContentOf(node) ?? '')) return true
  }
  return false
}

/** A container whose children are all alike (a list's items, a grid's cards) stands for each of them. */
function itemsOf(owner: Element): Element[] {
  const children = Array.from(childrenOf(owner))
  if (children.length < 2) return [owner]
  const tag = localNameOf(children[0]!)
  const classes = attributeOf(children[0]!, 'class')
  const alike = children.every((child) => localNameOf(child) === tag && attributeOf(child, 'class') === classes)
  return alike ? children : [owner]
}

/** Merges `added` into `ordered` (both in document order once `added` is sorted). */
function inDocumentOrder(ordered: Element[], added: Element[]): Element[] {
  // 4: DOCUMENT_POSITION_FOLLOWING, read as "b comes after a".
  const before = (a: Element, b: Element) => (positionOf(a, b) & 4) !== 0
  added.sort((a, b) => (a === b ? 0 : before(a, b) ? -1 : 1))
  const merged: Element[] = []
  let next = 0
  for (const el of ordered) {
    while (next < added.length && before(added[next]!, el)) merged.push(added[next++]!)
    merged.push(el)
  }
  while (next < added.length) merged.push(added[next++]!)
  return merged
}

/**
 * The listened elements by what their listeners are for (`ObserveRequest.listenedKinds`). A click,
 * drag or drop listener makes an element a control by script; a hover listener adds what can be done.
 * A press listener with no click on a list of alike items (a sortable list's) stands for its items:
 * each is what a person picks up. A key listener makes a control of an element a person can tab to.
 */
function listenersByKind(nodes: Element[], kinds: readonly string[]): { listened: Set<Element>; signals: InputSignals; pointer: Set<Element> } {
  const listened = new Set<Element>()
  const pointer = new Set<Element>()
  const click = new Set<Element>()
  const hover = new Set<Element>()
  const drag = new Set<Element>()
  const drop = new Set<Element>()
  const keys = new Set<Element>()
  nodes.forEach((node, index) => {
    const kind = kinds[index] ?? 'c'
    if (kind.includes('c')) click.add(node)
    if (kind.includes('h')) hover.add(node)
    if (kind.includes('o')) drop.add(node)
    if (kind.includes('d')) drag.add(node)
    if (kind.includes('m')) pointer.add(node)
    if (kind.includes('k')) keys.add(node)
    const items = kind.includes('d') && LISTS.has(localNameOf(node)) ? itemsOf(node) : [node]
    if (items[0] !== node) for (const item of items) listened.add(item)
    else if (kind.includes('c') || kind.includes('d') || kind.includes('o') || (kind.includes('k') && focusable(node))) listened.add(node)
  })
  return { listened, signals: { click, hover, drag, drop, keys }, pointer }
}

/**
 * Returns the FrameReport as JSON; the element and scroller nodes that are not `held` are kept for
 * `takeSentNodes(request.sendKey)`, so that Node has the report with the call's answer. `nodes` are
 * the child frames' iframes (one per `childPoints` entry), then the elements Node saw a click, press or
 * touch listener on.
 */
export function observe(request: ObserveRequest, ...nodes: Element[]): string {
  const reg = registry(request.docToken)!
  const owners = nodes.slice(0, request.childPoints.length)
  const { listened, signals: inputSignals, pointer } = listenersByKind(nodes.slice(request.childPoints.length), request.listenedKinds)
  const watch = frameWatch()
  noteObserved(watch)
  const reused = reusedReport(watch, request, nodes)
  if (reused) return sendReport(reused, request)
  const { kept, changed, removed } = takeChanges(watch)
  const walk = walkChanges(kept, changed, removed, listened)
  keepWalk(watch, walk, walk.walked)
  usePlacements(trustedPlacements(watch))
  useHeadings(walk.found.headings)
  const found = copyFound(walk.found)
  const { text, holders, captcha } = viewportText(found.texts, request.textLimit)
  addPointerControls(found, holders, listened)
  const { candidates, canvases, signals } = found

  const visible: Visible[] = []
  const blockers: RawBlocker[] = []
  const seenNodes = new Set<Element>()
  let challengeField: Element | undefined

  const throughLabels = controlsOfPlacedLabels(found.labels)
  for (const el of candidates) {
    if (!mayBeInView(el, throughLabels)) continue
    const type = inputType(el)
    // Cheap first cut: most controls of a long page are outside the viewport. A checkbox or radio may
    // be hidden or moved off-screen on purpose and be offered through its label.
    const labelled = type === 'checkbox' || type === 'radio'
    if (!labelled && !inViewport(el)) continue
    const { node, seen } = labelled ? labelledVisibility(el) : { node: el, seen: visibility(el) }
    if ('reason' in seen || seenNodes.has(node) || disabled(el)) continue
    seenNodes.add(node)
    if (type === 'password') blockers.push({ kind: 'password', rect: round(seen.rect), at: seen.at })
    // A file input needs a file from the caller: it is not offered, and the request counts it as left out.
    if (type === 'file') {
      blockers.push({ kind: 'file_input', rect: round(seen.rect), at: seen.at })
      continue
    }
    if (type === 'text' && !challengeField && captchaField(el)) challengeField = el
    const signal = signals.get(el) ?? 'native'
    // Listened only for drops (not a click): a place to drop things on, not a control to click.
    const dropOnly = signal === 'listener' && inputSignals.drop.has(el) && !inputSignals.click.has(el) && !inputSignals.drag.has(el)
    visible.push({ el, node, seen, signal: dropOnly ? 'drop' : signal })
  }

  const { chosen, omitted, omittedNames } = offer(visible, request.maxElements, request.nameLimit)
  const elements: RawElement[] = []
  const elementNodes: Element[] = []
  const focused = focusedElement(document)
  for (const { node, seen } of chosen) {
    const { parts, ...description } = describe(node, request, inputSignals)
    const element: RawElement = { nodeId: nodeIdOf(reg, node), ...description, rect: round(seen.rect), at: seen.at, fingerprint: fingerprintOf(parts) }
    if (focused && (focused === node || focused === subjectOf(node))) element.focused = true
    if (request.pointerEverywhere || followsPointer(node, pointer)) element.pointerFollowed = true
    elements.push(element)
    elementNodes.push(node)
  }

  for (const canvas of canvases) {
    const seen = visibility(canvas)
    if ('reason' in seen || !canvasSurface(seen.rect)) continue
    blockers.push({ kind: 'canvas', rect: round(seen.rect), at: seen.at })
  }

  // A field's prompt may be its placeholder or label only, so the offered names are read too.
  const verification = captcha ?? captchaWidget(challengeField, found.widgets) ?? captchaPhrase([text, ...elements.map((element) => element.name)])
  if (verification) blockers.unshift(verification)
  // An XML or SVG document has no body: no form, no text layout the agent can reason about.
  if (!document.body && window === window.top) blockers.push({ kind: 'no_body', rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] })

  // A child frame's own scroller, put first below, keeps a slot of the frame's cap.
  const containerSlots = request.maxScrollers - (request.frameScroller ? 1 : 0)
  const { scrollers, scrollNodes } = scrollersAround(reg, [...elementNodes, ...holders], containerSlots)
  const pageScroller = document.scrollingElement ?? document.documentElement
  const scrollTop = window.scrollY
  const scrollHeight = pageScroller ? pageScroller.scrollHeight : 0
  const scroll = { x: Math.round(window.scrollX), y: Math.round(scrollTop), up: scrollTop > 0, down: scrollTop + vh < scrollHeight - 1 }
  if (request.frameScroller && pageScroller && (scroll.up || scroll.down) && vh >= 150) {
    scrollers.unshift({
      nodeId: nodeIdOf(reg, pageScroller),
      name: shorten(document.title || location.host || 'frame', 40),
      top: scroll.y,
      up: scroll.up,
      down: scroll.down,
      rect: { x: 0, y: 0, width: vw, height: vh },
      at: [vw >> 1, vh >> 1],
    })
    scrollNodes.unshift(pageScroller)
  }

  const children = owners.map((owner, index) => hitThrough(owner, request.childPoints[index] ?? []))

  const report: FrameReport = {
    url: location.href,
    title: document.title,
    doc: reg.doc,
    text,
    scroll,
    elements,
    omitted,
    omittedNames,
    blockers,
    scrollers,
    children,
  }
  keepReport(watch, request, nodes, report, elementNodes, scrollNodes)
  return sendReport({ report, elementNodes, scrollNodes }, request)
}
