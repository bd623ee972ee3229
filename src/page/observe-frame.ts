import { canvasSurface, captchaField, captchaPhrase, captchaWidget } from './blockers.ts'
import { inputType } from './dom.ts'
import { describe, fingerprintOf } from './describe-control.ts'
import { hitThrough } from './hit-test.ts'
import { vh, vw } from './layout.ts'
import { isCandidate } from './names.ts'
import { nodeIdOf, registry } from './node-ids.ts'
import { scrollersAround } from './scrollers.ts'
import { clip, SKIP_TAGS } from './text.ts'
import type { FrameReport, ObserveRequest, RawBlocker, RawElement } from './types.ts'
import { viewportText } from './viewport-text.ts'
import { disabled, inViewport, labelledVisibility, round, visibility } from './visibility.ts'

// One frame's observation: the controls a person could use now, the viewport's text, blockers,
// scroll containers, and what this frame shows of its child frames (`owners`, their iframes).

interface Found {
  candidates: Element[]
  canvases: Element[]
  texts: Text[]
}

function nextSkipping(walker: TreeWalker): Node | null {
  let next = walker.nextSibling()
  while (!next) {
    if (!walker.parentNode()) return null
    next = walker.nextSibling()
  }
  return next
}

/** Collects controls, canvases and text nodes in document order, through open shadow roots. */
function walk(root: Document | ShadowRoot, { candidates, canvases, texts }: Found) {
  // SHOW_ELEMENT | SHOW_TEXT
  const walker = document.createTreeWalker(root, 0x1 | 0x4)
  let node = walker.nextNode()
  while (node) {
    if (node.nodeType === 3) {
      texts.push(node as Text)
      node = walker.nextNode()
      continue
    }
    const el = node as Element
    const tag = el.localName
    if (isCandidate(el)) candidates.push(el)
    else if (tag === 'canvas') canvases.push(el)
    if (el.shadowRoot) walk(el.shadowRoot, { candidates, canvases, texts })
    node = SKIP_TAGS.has(tag) || (el as HTMLElement).hidden ? nextSkipping(walker) : walker.nextNode()
  }
}

/**
 * Returns the FrameReport as JSON, or `[json, ...nodes]` with the element then scroller nodes that are
 * not `held`, in report order (one round trip less when every node is already held).
 */
export function observe(request: ObserveRequest, ...owners: Element[]): string | [string, ...Element[]] {
  const reg = registry(request.docToken)!
  const found: Found = { candidates: [], canvases: [], texts: [] }
  walk(document, found)
  const { candidates, canvases, texts } = found

  const elements: RawElement[] = []
  const nodes: Element[] = []
  const blockers: RawBlocker[] = []
  let omitted = 0
  const seenNodes = new Set<Element>()
  let challengeField: Element | undefined

  for (const el of candidates) {
    const type = inputType(el)
    // Cheap first cut: most controls of a long page are outside the viewport. A checkbox or radio may
    // be hidden or moved off-screen on purpose and be offered through its label.
    const labelled = type === 'checkbox' || type === 'radio'
    if (!labelled && !inViewport(el)) continue
    const { node, seen } = labelled ? labelledVisibility(el) : { node: el, seen: visibility(el) }
    if ('reason' in seen || seenNodes.has(node) || disabled(el)) continue
    seenNodes.add(node)
    if (type === 'password') blockers.push({ kind: 'password', rect: round(seen.rect), at: seen.at })
    if (type === 'file') blockers.push({ kind: 'file_input', rect: round(seen.rect), at: seen.at })
    if (type === 'text' && !challengeField && captchaField(el)) challengeField = el
    if (elements.length >= request.maxElements) {
      omitted++
      continue
    }
    const { parts, ...description } = describe(node, request.nameLimit, request.nearbyLimit)
    elements.push({ nodeId: nodeIdOf(reg, node), ...description, rect: round(seen.rect), at: seen.at, fingerprint: fingerprintOf(parts) })
    nodes.push(node)
  }

  for (const canvas of canvases) {
    const seen = visibility(canvas)
    if ('reason' in seen || !canvasSurface(seen.rect)) continue
    blockers.push({ kind: 'canvas', rect: round(seen.rect), at: seen.at })
  }

  const { text, holders, captcha } = viewportText(texts, request.textLimit)
  // A field's prompt may be its placeholder or label only, so the offered names are read too.
  const verification = captcha ?? captchaWidget(challengeField) ?? captchaPhrase([text, ...elements.map((element) => element.name)])
  if (verification) blockers.unshift(verification)
  // An XML or SVG document has no body: no form, no text layout the agent can reason about.
  if (!document.body && window === window.top) blockers.push({ kind: 'no_body', rect: { x: 0, y: 0, width: vw, height: vh }, at: [vw >> 1, vh >> 1] })

  const { scrollers, scrollNodes } = scrollersAround(reg, [...nodes, ...holders])
  const pageScroller = document.scrollingElement ?? document.documentElement
  const scrollTop = window.scrollY
  const scrollHeight = pageScroller ? pageScroller.scrollHeight : 0
  const scroll = { x: Math.round(window.scrollX), y: Math.round(scrollTop), up: scrollTop > 0, down: scrollTop + vh < scrollHeight - 1 }
  if (request.frameScroller && pageScroller && (scroll.up || scroll.down) && vh >= 150) {
    scrollers.unshift({
      nodeId: nodeIdOf(reg, pageScroller),
      name: clip(document.title || location.host || 'frame', 40),
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
    blockers,
    scrollers,
    children,
  }
  const held = new Set(request.held)
  const sent: Element[] = []
  elements.forEach((element, i) => (held.has(element.nodeId) ? (element.held = true) : sent.push(nodes[i]!)))
  scrollers.forEach((scroller, i) => (held.has(scroller.nodeId) ? (scroller.held = true) : sent.push(scrollNodes[i]!)))
  const json = JSON.stringify(report)
  return sent.length ? [json, ...sent] : json
}
