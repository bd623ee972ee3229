import { isChallengeWidget } from './blockers.ts'
import { containsNode, firstChildOf, isConnectedNode, localNameOf, namespaceOf, nodeTypeOf, positionOf, rootNodeOf, shadowRootOf } from './dom-safe.ts'
import { closed, insideClosed } from './closed.ts'
import { isCandidate } from './names.ts'
import { isHeading } from './nearby.ts'
import type { Signal } from './offer.ts'
import { hintedIn, hintedUnder, scriptSignal } from './script-controls.ts'

// The observe walk: every node a frame's observation starts from (controls, canvases, icons, labels,
// text), in document order, through open shadow roots. A document's last walk is kept; the next one
// re-walks only the subtrees that changed since (the mutation records of `frame-watch.ts`) and the
// elements whose listeners changed, and splices them into the kept lists. A document with open shadow
// roots is walked whole each time: document order across trees is not one that positions can compare.

export interface Found {
  /** Controls by tag or role, and elements with a script signal, in document order. */
  candidates: Element[]
  /** How each candidate that is not a control by its tag or role became one. */
  signals: Map<Element, Signal>
  canvases: Element[]
  /** Text nodes with something to read (not only white space). */
  texts: Text[]
  /** Elements with no content of their own (icons): a pointer cursor over them names a control. */
  leaves: Element[]
  /** Labels: a checkbox hidden on purpose is seen through one (the viewport watch follows them). */
  labels: Element[]
  /** Headings of the document's own tree (not of shadow trees): what a control's nearby text may come from. */
  headings: Element[]
  /** The widgets of human-verification providers, visible or not (`isChallengeWidget`). */
  widgets: Element[]
}

/** A walk as a document keeps it for the next observation. */
export interface KeptWalk {
  found: Found
  /** What this walk read afresh: the whole document's lists, or those of each subtree walked again. */
  walked: Found[]
  listened: ReadonlySet<Element>
  /** The open shadow roots the walk went into: with any, the next walk is of the whole document again. */
  shadowRoots: ShadowRoot[]
}

/** Elements without content that never draw an icon. */
const NOT_ICONS = new Set(['br', 'wbr', 'hr', 'input', 'meta', 'link', 'source', 'track', 'col', 'area', 'base', 'param', 'embed', 'slot'])
const SVG_NS = 'http://www.w3.org/2000/svg'
const HAS_TEXT = /\S/
/** Past this many changed subtrees, one walk of the whole document is cheaper than splicing each in. */
const MAX_CHANGED_ROOTS = 50

function emptyFound(): Found {
  return { candidates: [], signals: new Map(), canvases: [], texts: [], leaves: [], labels: [], headings: [], widgets: [] }
}

/** A copy the observation may add to without touching what is kept. */
export function copyFound(found: Found): Found {
  return { ...found, candidates: [...found.candidates], signals: new Map(found.signals) }
}

function nextSkipping(walker: TreeWalker): Node | null {
  let next = walker.nextSibling()
  while (!next) {
    if (!walker.parentNode()) return null
    next = walker.nextSibling()
  }
  return next
}

interface WalkState {
  found: Found
  listened: ReadonlySet<Element>
  shadowRoots: ShadowRoot[]
  /** Walking a shadow tree, whose headings are not the document's. */
  inShadow: boolean
}

function visit(el: Element, state: WalkState, hints: ReadonlySet<Element>): void {
  const { found } = state
  const tag = localNameOf(el)
  if (isCandidate(el)) found.candidates.push(el)
  else {
    const signal = scriptSignal(el, state.listened, hints)
    if (signal) {
      found.candidates.push(el)
      found.signals.set(el, signal)
    } else if (tag === 'canvas') found.canvases.push(el)
  }
  if (tag === 'label') found.labels.push(el)
  if (!state.inShadow && isHeading(el, tag)) found.headings.push(el)
  if (isChallengeWidget(el, tag)) found.widgets.push(el)
  // An inline SVG is one icon, however many shapes draw it.
  if (tag === 'svg' || (firstChildOf(el) === null && !NOT_ICONS.has(tag) && namespaceOf(el) !== SVG_NS)) found.leaves.push(el)
  const shadowRoot = shadowRootOf(el)
  if (shadowRoot) {
    state.shadowRoots.push(shadowRoot)
    const inShadow = state.inShadow
    state.inShadow = true
    walkBelow(shadowRoot, state, hintedIn(shadowRoot))
    state.inShadow = inShadow
  }
}

/** Walks the nodes below `root` (not `root` itself), skipping closed subtrees. */
function walkBelow(root: Node, state: WalkState, hints: ReadonlySet<Element>): void {
  // SHOW_ELEMENT | SHOW_TEXT
  const walker = document.createTreeWalker(root, 0x1 | 0x4)
  let node = walker.nextNode()
  while (node) {
    if (nodeTypeOf(node) === 3) {
      if (HAS_TEXT.test((node as Text).data)) state.found.texts.push(node as Text)
      node = walker.nextNode()
      continue
    }
    const el = node as Element
    visit(el, state, hints)
    node = closed(el) ? nextSkipping(walker) : walker.nextNode()
  }
}

/** The whole document's walk. */
export function walkDocument(listened: ReadonlySet<Element>): KeptWalk {
  const state: WalkState = { found: emptyFound(), listened, shadowRoots: [], inShadow: false }
  walkBelow(document, state, hintedIn(document))
  return { found: state.found, walked: [state.found], listened, shadowRoots: state.shadowRoots }
}

/**
 * The walk after `changed` (the roots of the subtrees that changed, or 'all'), from the kept one; with
 * `removed`, nodes left the document since. An element whose listeners came or went is a changed root
 * of its own.
 */
export function walkChanges(kept: KeptWalk | undefined, changed: Element[] | 'all', removed: boolean, listened: ReadonlySet<Element>): KeptWalk {
  if (!kept || kept.shadowRoots.length || changed === 'all') return walkDocument(listened)
  const roots = new Set(changed)
  for (const el of listened) if (!kept.listened.has(el)) roots.add(el)
  for (const el of kept.listened) if (!listened.has(el)) roots.add(el)
  if (roots.size > MAX_CHANGED_ROOTS) return walkDocument(listened)
  if (roots.size === 0) return { ...kept, walked: [] }
  const tops = topmost([...roots].filter(isConnectedNode))
  if (tops.some((root) => rootNodeOf(root) !== document)) return walkDocument(listened)
  const found = removed ? connected(kept.found) : { ...kept.found, signals: new Map(kept.found.signals) }
  const walked: Found[] = []
  for (const root of tops) {
    const part: WalkState = { found: emptyFound(), listened, shadowRoots: [], inShadow: false }
    if (!insideClosed(root)) {
      const hints = hintedUnder(root)
      visit(root, part, hints)
      if (!closed(root)) walkBelow(root, part, hints)
      if (part.shadowRoots.length) return walkDocument(listened)
    }
    replaceSubtree(found, part.found, root)
    walked.push(part.found)
  }
  return { found, walked, listened, shadowRoots: [] }
}

/** The roots not inside another one. */
function topmost(roots: Element[]): Element[] {
  return roots.filter((root) => !roots.some((other) => other !== root && containsNode(other, root)))
}

/** The kept lists without the nodes that left the document (positions compare only within it). */
function connected(found: Found): Found {
  const candidates = found.candidates.filter(isConnectedNode)
  const signals = new Map<Element, Signal>()
  for (const el of candidates) {
    const signal = found.signals.get(el)
    if (signal) signals.set(el, signal)
  }
  const kept = <T extends Node>(list: T[]) => list.filter(isConnectedNode)
  return {
    candidates,
    signals,
    canvases: kept(found.canvases),
    texts: kept(found.texts),
    leaves: kept(found.leaves),
    labels: kept(found.labels),
    headings: kept(found.headings),
    widgets: kept(found.widgets),
  }
}

// compareDocumentPosition bits, read as "the node is … the root".
const FOLLOWING = 4
const CONTAINED_BY = 16

/** The first index of `list` (in document order) whose node passes `after`, which holds from some index on. */
function firstWhere(list: Node[], after: (node: Node) => boolean): number {
  let low = 0
  let high = list.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (after(list[mid]!)) high = mid
    else low = mid + 1
  }
  return low
}

/** Replaces, in one list, the nodes of `root`'s subtree (a contiguous run) with those walked again. */
function replaceRun<T extends Node>(list: T[], part: T[], root: Element, removed?: (node: T) => void): T[] {
  const position = (node: Node) => positionOf(root, node)
  const start = firstWhere(list, (node) => node === root || (position(node) & (FOLLOWING | CONTAINED_BY)) !== 0)
  const end = firstWhere(list, (node) => node !== root && (position(node) & (FOLLOWING | CONTAINED_BY)) === FOLLOWING)
  if (removed) for (let i = start; i < end; i++) removed(list[i]!)
  if (start === end && part.length === 0) return list
  return list.slice(0, start).concat(part, list.slice(end))
}

/** Puts a re-walked subtree's nodes in place of what the kept walk had there. */
function replaceSubtree(found: Found, part: Found, root: Element): void {
  found.candidates = replaceRun(found.candidates, part.candidates, root, (el) => found.signals.delete(el))
  found.canvases = replaceRun(found.canvases, part.canvases, root)
  found.texts = replaceRun(found.texts, part.texts, root)
  found.leaves = replaceRun(found.leaves, part.leaves, root)
  found.labels = replaceRun(found.labels, part.labels, root)
  found.headings = replaceRun(found.headings, part.headings, root)
  found.widgets = replaceRun(found.widgets, part.widgets, root)
  for (const [el, signal] of part.signals) found.signals.set(el, signal)
}
