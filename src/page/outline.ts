import { childrenOf, localNameOf, parentElementOf, previousElementOf } from './dom-safe.ts'
import { chromeWithin, findMainContent } from './main-content.ts'
import { findMainObject } from './main-object.ts'
import { fitLines, type OutlineLine } from './outline-budget.ts'
import { informative, label, nameOf, productSignal, shape, SKIPPED } from './outline-lines.ts'
import { metadataLines } from './outline-metadata.ts'

// The outline the rule writer shows a text model. Dense, because it is bounded and real pages are
// large: the page's metadata first, then its main object (a product's block) and what is around it,
// nearest first, or else its main content and then the rest of the body; one element a line (bare
// wrappers joined to their child's line), its depth as a number instead of indentation, generated
// class names left out, similar siblings counted. Over the bound, lines are left out by what they
// are worth (src/page/outline-budget.ts), so a product's values stay in on any page.

/** What the rule writer shows the model about the page. */
export interface PageOutline {
  url: string
  title: string
  /** The metadata and the elements, one a line, each element's depth as a number before it. */
  outline: string
}

export interface OutlineLimits {
  /** Longest outline, in characters. */
  maxChars: number
  /** Text and attribute values are clipped to this many characters. */
  textChars: number
  /** Of similar siblings, this many are shown and the rest counted. */
  similarShown: number
  /** The outline is taken again until it stops changing, for at most this long. */
  maxWaitMs: number
  /** Pause between two takes. */
  intervalMs: number
}

/** Lines outlined before the bound is applied, as a multiple of it: the rest is too far from what matters. */
const RAW_LINES_FACTOR = 8

/**
 * Lines inside each of the main object's title, price and buy button kept with it: their text is
 * often split over children ("£" and "450", a title's words in spans). The anchors are short, so this
 * keeps them whole; the bound stops a buy box that holds a whole form.
 */
const ANCHOR_LINES = 16

/** What a line is worth (lower is kept first): see src/page/outline-budget.ts. */
const TIER = { signal: 0, signalAround: 1, near: 2, far: 3, bare: 4 } as const
// Metadata that names the product or its offer, kept with the product's own lines.
const PRODUCT_META = /price|currency|availability|sku|gtin|mpn|product|brand|title|url/i

/** The siblings of `inner` among `children`, nearest first, the next one before the previous one. */
function nearestFirst(children: Element[], inner: Element): Element[] {
  const at = children.indexOf(inner)
  const order: Element[] = []
  for (let distance = 1; distance < children.length; distance++) {
    if (at + distance < children.length) order.push(children[at + distance]!)
    if (at - distance >= 0) order.push(children[at - distance]!)
  }
  return order
}

/** Whether anything is outlined before the element when the body is outlined in order. */
function preceded(element: Element, body: Element): boolean {
  for (let node: Element | null = element; node && node !== body; node = parentElementOf(node)) {
    for (let sibling = previousElementOf(node); sibling; sibling = previousElementOf(sibling)) if (!SKIPPED.has(localNameOf(sibling))) return true
  }
  return false
}

const outlined = (element: Element) => Array.from(childrenOf(element)).filter((child) => !SKIPPED.has(localNameOf(child)))

function take(limits: OutlineLimits): string {
  const lines: OutlineLine[] = []
  let size = 0
  const rawLimit = limits.maxChars * RAW_LINES_FACTOR
  const full = () => size > rawLimit
  const add = (text: string, depth: number, parent: number, tier: number): number => {
    if (full()) return -1
    lines.push({ text, depth, parent, tier })
    size += text.length + 1
    return lines.length - 1
  }
  const heading = (text: string) => add(text, 0, -1, TIER.signal)
  // Whether the walk is inside the main block (its lines are near) or around it.
  let near = true
  // The main object's title, price and buy button: kept first, whatever their markup.
  let anchors: ReadonlySet<Element> = new Set()
  // Lines still kept as the anchor's own, while the walk is inside one.
  let anchorLines = 0
  // Elements outlined in another section: one line here saying where.
  const elsewhere = new Map<Element, string>()
  const walk = (element: Element, depth: number, parent: number, prefix = '') => {
    const moved = elsewhere.get(element)
    if (moved) return void add(`${depth} ${prefix}${nameOf(element)} (${moved})`, depth, parent, TIER.bare)
    const line = label(element, limits.textChars)
    // An SVG's shapes hold nothing a rule reads, and icons put dozens of them in every menu item.
    const tag = localNameOf(element)
    const children = tag === 'svg' ? [] : outlined(element)
    // A bare wrapper (no name, attribute or text of its own) around one element shares its line: `div > div > a`.
    if (line === tag && children.length === 1) return walk(children[0]!, depth, parent, `${prefix}${line} > `)
    const anchor = anchors.has(element)
    const ofAnchor = anchorLines > 0
    if (ofAnchor) anchorLines -= 1
    const tier = anchor || ofAnchor || productSignal(element) ? (near ? TIER.signal : TIER.signalAround) : !informative(element, line) ? TIER.bare : near ? TIER.near : TIER.far
    const index = add(`${depth} ${prefix}${line}`, depth, parent, tier)
    if (index === -1) return
    if (!anchor) return walkChildren(children, depth + 1, index)
    const outer = anchorLines
    anchorLines = ANCHOR_LINES
    walkChildren(children, depth + 1, index)
    anchorLines = outer
  }
  /** Children in the order given; of similar ones, the first few and a count of the rest. */
  const walkChildren = (children: Element[], depth: number, parent: number) => {
    const shapes = children.map(shape)
    const totals = new Map<string, number>()
    for (const key of shapes) totals.set(key, (totals.get(key) ?? 0) + 1)
    const seen = new Map<string, number>()
    for (let index = 0; index < children.length && !full(); index++) {
      const key = shapes[index]!
      const count = (seen.get(key) ?? 0) + 1
      seen.set(key, count)
      if (count <= limits.similarShown) walk(children[index]!, depth, parent)
      const total = totals.get(key) ?? 0
      if (count === limits.similarShown && total > count) add(`${depth} … ${total - count} more ${nameOf(children[index]!)} like the ones above`, depth, parent, TIER.bare)
    }
  }

  const metadata = metadataLines(limits.textChars)
  if (metadata.length) heading('Metadata:')
  for (const line of metadata) add(line, 0, -1, line.startsWith('json-ld ') || PRODUCT_META.test(line.split(' = ')[0]!) ? TIER.signal : TIER.far)
  const body = document.body ?? document.documentElement
  const object = body ? findMainObject(body) : undefined
  if (body && object) {
    anchors = new Set(object.anchors)
    heading('Main object (the title, price and buy button of the page):')
    walk(object.block, 0, -1)
    near = false
    heading('Around it, nearest first (each block holds the one above; its other children follow):')
    for (let inner = object.block, outer = parentElementOf(object.block); outer && inner !== body; inner = outer, outer = parentElementOf(outer)) {
      // A wrapper around the block alone adds nothing to what is around it.
      const others = nearestFirst(outlined(outer), inner)
      if (others.length === 0) continue
      const index = add(`0 ${label(outer, limits.textChars)}`, 0, -1, TIER.near)
      if (index === -1) break
      walkChildren(others, 1, index)
    }
  } else {
    const main = body ? findMainContent(body, SKIPPED) : undefined
    // Page chrome inside the main content: the block holding all the content can hold the header too.
    const chrome = main ? chromeWithin(main) : []
    if (body && main && (chrome.length || preceded(main, body))) {
      // The main content first, page chrome inside it after the rest of the page.
      for (const element of chrome) elsewhere.set(element, 'outlined at the end')
      heading('Main content:')
      walk(main, 0, -1)
      elsewhere.clear()
      elsewhere.set(main, 'the main content, outlined above')
      near = false
      heading('Rest of the page:')
      walk(body, 0, -1)
      elsewhere.clear()
      for (const element of chrome) walk(element, 0, -1)
    } else if (body) {
      if (metadata.length) heading('Page:')
      walk(body, 0, -1)
    }
  }
  const note = `(lines marked "…" were left out to keep the outline within ${limits.maxChars} characters)`
  const fitted = fitLines(lines, limits.maxChars - note.length - 1)
  if (fitted.leftOut > 0 || full()) fitted.lines.push(note)
  return fitted.lines.join('\n')
}

/**
 * Outlines the page,
 * then again after each interval until two takes are the same or the wait is over.
 */
export async function outlinePage(limits: OutlineLimits): Promise<PageOutline> {
  const started = Date.now()
  let outline = take(limits)
  while (Date.now() - started < limits.maxWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(limits.intervalMs, limits.maxWaitMs - (Date.now() - started))))
    const next = take(limits)
    if (next === outline) break
    outline = next
  }
  return { url: location.href, title: document.title, outline }
}
