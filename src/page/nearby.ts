import { insideClosed } from './closed.ts'
import {
  attributeOf,
  closestTo,
  containsNode,
  localNameOf,
  nextElementOf,
  nodeTypeOf,
  parentElementOf,
  positionOf,
  previousElementOf,
  rootNodeOf,
} from './dom-safe.ts'
import { attr, composedParent } from './dom.ts'
import { callCache, remembered, rendered } from './layout.ts'
import { shorten, textOf } from './text.ts'
import { hiddenFromUsers } from './visibility.ts'

// Short text near a control (its row, list item or card, else the rendered heading before it in its own
// part of the page) so that five links called "Quickstart" can be told apart. A heading counts only
// when it is structurally near: not hidden, and not inside a landmark, section, row or overlay (a
// cookie banner, a dialog) that the control is not in.

const ROW_TAGS = new Set(['li', 'tr', 'article', 'dd', 'fieldset'])
const ROW_ROLES = new Set(['row', 'listitem', 'article', 'group', 'radiogroup'])
const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])
const HEADING_ROLE = 'heading'
/** Headings as a selector, for the lookups inside a subtree. */
export const HEADINGS = [...HEADING_TAGS, `[role="${HEADING_ROLE}"]`].join(',')

/** Whether `el` (of local name `tag`) is a heading, as `HEADINGS` selects them, without matching a selector. */
export function isHeading(el: Element, tag: string): boolean {
  return HEADING_TAGS.has(tag) || attributeOf(el, 'role') === HEADING_ROLE
}

/** Parts of a page whose headings speak only for what is inside them. */
const SCOPE_TAGS = new Set(['section', 'article', 'aside', 'nav', 'main', 'form', 'fieldset', 'dialog', 'li', 'tr'])
const SCOPE_ROLES = new Set([
  'dialog', 'alertdialog', 'region', 'navigation', 'main', 'banner', 'contentinfo', 'complementary', 'form', 'search',
  'listitem', 'row', 'article',
])
/** `header`/`footer` are the page's banner and footer only outside sectioning content (HTML-AAM). */
const SECTIONING = 'article,aside,main,nav,section'

const headingCache = callCache<Node, Element[]>()
const scopeCache = callCache<Element, Element | null>()
const scopeAnswers = callCache<Element, boolean>()

/**
 * The document's headings as this call's walk found them (`Found.headings`), so that they are not
 * looked up again in the whole document: the same list `headingsOf` reads otherwise.
 */
export function useHeadings(headings: Element[]): void {
  headingCache.set(document, headings)
}

/** The headings of a tree in document order, but those inside a subtree no walk enters. */
function headingsOf(root: Document | ShadowRoot): Element[] {
  let found = headingCache.get(root)
  if (!found) {
    found = Array.from(root.querySelectorAll(HEADINGS)).filter((heading) => !insideClosed(heading))
    headingCache.set(root, found)
  }
  return found
}

function isScope(el: Element): boolean {
  return remembered(scopeAnswers, el, isScopeNow)
}

function isScopeNow(el: Element): boolean {
  const tag = localNameOf(el)
  if (SCOPE_TAGS.has(tag) || SCOPE_ROLES.has(attr(el, 'role').split(/\s+/)[0]!)) return true
  if (tag === 'header' || tag === 'footer') {
    const parent = parentElementOf(el)
    if (!parent || !closestTo(parent, SECTIONING)) return true
  }
  // A fixed or sticky box sits over the page (cookie banners, chat widgets, toolbars): its own part.
  const position = getComputedStyle(el).position
  return position === 'fixed' || position === 'sticky'
}

/** The closest part of the page that holds `heading` (in its own tree), or null for the whole tree. */
function scopeOf(heading: Element): Element | null {
  let found = scopeCache.get(heading)
  if (found === undefined) {
    found = null
    for (let node = parentElementOf(heading); node && localNameOf(node) !== 'body'; node = parentElementOf(node)) {
      if (isScope(node)) {
        found = node
        break
      }
    }
    scopeCache.set(heading, found)
  }
  return found
}

function speaksFor(heading: Element, anchor: Element): boolean {
  if (containsNode(heading, anchor) || !rendered(heading) || hiddenFromUsers(heading)) return false
  const scope = scopeOf(heading)
  return !scope || containsNode(scope, anchor)
}

/** The last heading before `el` in its tree that speaks for it, then in the host's tree. */
function precedingHeading(el: Element): Element | null {
  let anchor: Element | null = el
  while (anchor) {
    const root = rootNodeOf(anchor) as Document | ShadowRoot
    const list = headingsOf(root)
    // Binary search for the first heading that comes after the anchor (4: DOCUMENT_POSITION_FOLLOWING).
    let lo = 0
    let hi = list.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (positionOf(list[mid]!, anchor) & 4) lo = mid + 1
      else hi = mid
    }
    for (let i = lo - 1; i >= 0; i--) {
      if (speaksFor(list[i]!, anchor)) return list[i]!
    }
    anchor = nodeTypeOf(root) === 11 ? (root as ShadowRoot).host : null
  }
  return null
}

/** One of a run of like siblings (same tag and class): a product card in a grid, a row of divs. */
function isCard(el: Element): boolean {
  const tag = localNameOf(el)
  const classes = attributeOf(el, 'class')
  const like = (other: Element | null) => !!other && localNameOf(other) === tag && attributeOf(other, 'class') === classes
  return like(previousElementOf(el)) || like(nextElementOf(el))
}

function isRow(el: Element): boolean {
  return ROW_TAGS.has(localNameOf(el)) || ROW_ROLES.has(attr(el, 'role')) || isCard(el)
}

/** Short text that tells this control apart: its row, list item or card, else the closest heading before it. */
export function nearbyOf(el: Element, name: string, limit: number): string {
  let hops = 0
  for (let node = composedParent(el); node && nodeTypeOf(node) === 1 && hops < 8; node = composedParent(node), hops++) {
    const container = node as Element
    const tag = localNameOf(container)
    if (tag === 'body') break
    if (!isRow(container)) continue
    const legend = tag === 'fieldset' ? container.querySelector(':scope > legend') : null
    const text = legend ? textOf(legend, limit + 20, null, false) : textOf(container, limit * 2, el, false)
    if (text && text !== name) return shorten(text, limit)
  }
  const heading = precedingHeading(el)
  const text = heading ? textOf(heading, limit + 20, null, false) : ''
  return text && text !== name ? shorten(text, limit) : ''
}
