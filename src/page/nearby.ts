import { attr, composedParent } from './dom.ts'
import { callCache } from './layout.ts'
import { clip, textOf } from './text.ts'

// Short text near a control (its row or list item, else the heading before it) so that five links
// called "Quickstart" can be told apart.

const ROW_TAGS = new Set(['li', 'tr', 'article', 'dd', 'fieldset'])
const ROW_ROLES = new Set(['row', 'listitem', 'article', 'group', 'radiogroup'])
export const HEADINGS = 'h1,h2,h3,h4,h5,h6,[role="heading"]'

const headingCache = callCache<Node, Element[]>()

function headingsOf(root: Document | ShadowRoot): Element[] {
  let found = headingCache.get(root)
  if (!found) {
    found = Array.from(root.querySelectorAll(HEADINGS))
    headingCache.set(root, found)
  }
  return found
}

/** The last heading before `el` in its tree (not one that contains it), then in the host's tree. */
function precedingHeading(el: Element): Element | null {
  let anchor: Element | null = el
  while (anchor) {
    const root = anchor.getRootNode() as Document | ShadowRoot
    const list = headingsOf(root)
    // Binary search for the first heading that comes after the anchor (4: DOCUMENT_POSITION_FOLLOWING).
    let lo = 0
    let hi = list.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (list[mid]!.compareDocumentPosition(anchor) & 4) lo = mid + 1
      else hi = mid
    }
    for (let i = lo - 1; i >= 0; i--) {
      if (!list[i]!.contains(anchor)) return list[i]!
    }
    anchor = root.nodeType === 11 ? (root as ShadowRoot).host : null
  }
  return null
}

function isRow(el: Element): boolean {
  return ROW_TAGS.has(el.localName) || ROW_ROLES.has(attr(el, 'role'))
}

/** Short text that tells this control apart: its row or list item, else the closest heading before it. */
export function nearbyOf(el: Element, name: string, limit: number): string {
  let hops = 0
  for (let node = composedParent(el); node && node.nodeType === 1 && hops < 8; node = composedParent(node), hops++) {
    const container = node as Element
    if (container.localName === 'body') break
    if (!isRow(container)) continue
    const legend = container.localName === 'fieldset' ? container.querySelector(':scope > legend') : null
    const text = legend ? textOf(legend, limit + 20, null, false) : textOf(container, limit * 2, el, false)
    if (text && text !== name) return clip(text, limit)
  }
  const heading = precedingHeading(el)
  const text = heading ? textOf(heading, limit + 20, null, false) : ''
  return text && text !== name ? clip(text, limit) : ''
}
