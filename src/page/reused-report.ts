import { focusedElement } from './capabilities.ts'
import { localNameOf, scrollLeftOf, scrollTopOf } from './dom-safe.ts'
import { nothingChangedSince, viewState, type FrameWatch } from './frame-watch.ts'
import { keepSentNodes } from './sent-nodes.ts'
import type { FrameReport, ObserveRequest } from './types.ts'

// A frame that has not changed since its last observation is reported as it was, in a fraction of a
// millisecond: no mutation, no event that moves or restyles anything, the same scroll, size, address,
// focus, field values and scroll positions of what it offered, no animation running, and the same request and listened nodes. Anything
// else observes the frame again. Only what Node is handed back is rebuilt, since which nodes it
// holds differs from call to call. A target is still checked live before every input
// (check-target.ts): a reused report only ever spares an observation.

const KEY = Symbol.for('puppeteer-agent.kept-report')

interface KeptReport {
  report: FrameReport
  elementNodes: Element[]
  scrollNodes: Element[]
  /** The request it answered, but for what differs on every call (`held`, `docToken`, `sendKey`). */
  request: string
  /** The iframes and listened elements it was handed. */
  nodes: Element[]
  changes: number
  /** The address, and the window's scroll and size. */
  address: string
  focused: Element | null
  fields: string
  /** Where each offered element and scroller is scrolled to. */
  scrolls: string
}

function requestKey(request: ObserveRequest): string {
  const { held: _held, docToken: _token, sendKey: _key, ...rest } = request
  return JSON.stringify(rest)
}

/**
 * What a script may set without any event or mutation: the offered fields' values and selections, and
 * whether each checkbox and radio of the page is checked, offered or not (a CSS `:checked` rule opens
 * a menu hidden until then).
 */
function fieldStates(offered: Element[], candidates: readonly Element[]): string {
  let states = ''
  for (const node of offered) {
    const field = node as HTMLInputElement & HTMLSelectElement
    if (typeof field.value === 'string') states += `${field.value.length}:${field.value}|${field.selectedIndex ?? ''};`
  }
  for (const node of candidates) if (localNameOf(node) === 'input') states += (node as HTMLInputElement).checked ? '1' : '0'
  return states
}

/**
 * Where the offered elements and scrollers are scrolled to: a script may scroll a field or a list
 * without a mutation, and its scroll event comes only with the next frame drawn, after an
 * observation made at once would have taken the old report.
 */
function scrollStates(nodes: Element[]): string {
  let states = ''
  for (const node of nodes) states += `${scrollTopOf(node)},${scrollLeftOf(node)};`
  return states
}

/** Whether anything animates now; an engine that cannot say (jsdom) is taken to. */
function running(): boolean {
  if (typeof document.getAnimations !== 'function') return true
  return document.getAnimations().some((animation) => animation.playState === 'running')
}

function address(): string {
  return `${location.href} ${viewState()}`
}

function slot(): Record<symbol, KeptReport | undefined> {
  return document as unknown as Record<symbol, KeptReport | undefined>
}

/** Keeps a report for the next call to reuse; one made while something animates is not kept. */
export function keepReport(watch: FrameWatch, request: ObserveRequest, nodes: Element[], report: FrameReport, elementNodes: Element[], scrollNodes: Element[]): void {
  slot()[KEY] = running() ? undefined : {
    report,
    elementNodes,
    scrollNodes,
    request: requestKey(request),
    nodes,
    changes: watch.changes,
    address: address(),
    focused: focusedElement(document),
    fields: fieldStates(elementNodes, watch.walk?.found.candidates ?? []),
    scrolls: scrollStates([...elementNodes, ...scrollNodes]),
  }
}

/** Whether the page still shows what the kept report was made from: the same document state, whatever was asked. */
function pageAsKept(watch: FrameWatch, kept: KeptReport): boolean {
  if (!nothingChangedSince(watch, kept.changes)) return false
  if (kept.address !== address() || kept.focused !== focusedElement(document)) return false
  if (kept.fields !== fieldStates(kept.elementNodes, watch.walk?.found.candidates ?? []) || running()) return false
  return kept.scrolls === scrollStates([...kept.elementNodes, ...kept.scrollNodes])
}

/** The kept report, when nothing it was made from has changed since. */
export function reusedReport(watch: FrameWatch, request: ObserveRequest, nodes: Element[]): KeptReport | undefined {
  const kept = slot()[KEY]
  if (!kept || kept.request !== requestKey(request)) return undefined
  if (kept.nodes.length !== nodes.length || kept.nodes.some((node, i) => node !== nodes[i])) return undefined
  return pageAsKept(watch, kept) ? kept : undefined
}

/**
 * Whether the document's last observation still stands: one was kept and nothing it was made from
 * has changed since. Node takes an observation made while it waited for the page's quiet only then.
 */
export function lastObservationStands(watch: FrameWatch): boolean {
  const kept = slot()[KEY]
  return kept !== undefined && pageAsKept(watch, kept)
}

/**
 * The report as JSON, its elements and scrollers that Node holds marked `held`. The nodes Node does not
 * hold, elements then scrollers in report order, are kept under the request's `sendKey` for Node to take.
 */
export function sendReport(kept: Pick<KeptReport, 'report' | 'elementNodes' | 'scrollNodes'>, request: Pick<ObserveRequest, 'held' | 'sendKey'>): string {
  const held = new Set(request.held)
  const sent: Element[] = []
  const { report } = kept
  const elements = report.elements.map((element, i) => {
    if (held.has(element.nodeId)) return { ...element, held: true as const }
    sent.push(kept.elementNodes[i]!)
    return element
  })
  const scrollers = report.scrollers.map((scroller, i) => {
    if (held.has(scroller.nodeId)) return { ...scroller, held: true as const }
    sent.push(kept.scrollNodes[i]!)
    return scroller
  })
  keepSentNodes(request.sendKey, sent)
  return JSON.stringify({ ...report, elements, scrollers })
}
