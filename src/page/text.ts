import {
  attributeOf,
  canCheckVisibility,
  checkVisibility,
  childNodesOf,
  firstChildOf,
  localNameOf,
  nextSiblingOf,
  nodeTypeOf,
  parentNodeOf,
  shadowRootOf,
} from './dom-safe.ts'
import { attr, hiddenAttribute } from './dom.ts'
import { boxless, callCache, remembered } from './layout.ts'

// The one definition of text as the agent reads it: which tags hold no readable text, which tags
// separate words, how whitespace collapses and how long text is shortened. The collector, the rules
// engine and the outline all read text through this module, so the model and the extractor agree.

export const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'head', 'select', 'datalist', 'option', 'textarea'])
export const BLOCK_TAGS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'fieldset', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul', 'button', 'label', 'option', 'details', 'dialog', 'summary',
])

export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Bounds of `textPieces`: what it reads at most, and which elements a text may be spread over. */
export interface PieceBounds {
  /** Characters of the pieces, a space counted between two. */
  maxChars: number
  /** Nodes walked, elements and texts; unbounded when left out. */
  maxNodes?: number
  /** Elements the pieces may sit in; any when left out. */
  within?: ReadonlySet<string>
}

/**
 * The element's text nodes in order, each whitespace-collapsed, empty ones left out: the pieces of a
 * text its markup splits ("MÖCKELBY" and "Table", "£" and "450"). Undefined once a bound is passed
 * or an element outside `within` is met.
 */
export function textPieces(element: Element, bounds: PieceBounds): string[] | undefined {
  const pieces: string[] = []
  let length = 0
  let nodes = 0
  const walker = document.createTreeWalker(element, bounds.within ? NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT : NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (++nodes > (bounds.maxNodes ?? Infinity)) return undefined
    if (nodeTypeOf(node) !== 3) {
      if (!bounds.within!.has(localNameOf(node as Element))) return undefined
      continue
    }
    const piece = collapse((node as Text).data)
    if (!piece) continue
    length += piece.length + 1
    if (length > bounds.maxChars + 1) return undefined
    pieces.push(piece)
  }
  return pieces
}

/** The element's own text: its text children, not its descendants', whitespace collapsed. */
export function ownText(element: Element): string {
  let own = ''
  for (let child = firstChildOf(element); child; child = nextSiblingOf(child)) if (nodeTypeOf(child) === 3) own += (child as Text).data
  return collapse(own)
}

/**
 * `text` cut to `limit` characters with a bare `…`: for short labels and names, where the length mark
 * of `clip` in src/clip.ts would leave no room for the text itself.
 */
export function shorten(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}

/** Characters kept from a long URL's end: its last path segment, where shops put the item's number. */
const URL_END = 32

/**
 * `shorten` for values that may be URLs: a long URL keeps its start and its end, with `…` between,
 * so the code in its last segment ("…/itm/293565036718") stays readable.
 */
export function shortenValue(text: string, limit: number): string {
  if (text.length <= limit || !/^(https?:)?\/\S+$/.test(text)) return shorten(text, limit)
  return `${text.slice(0, limit - URL_END - 1)}…${text.slice(-URL_END)}`
}

/** FNV-1a's starting state: `hashOn` from here over pieces gives `hash` of the pieces joined. */
export const HASH_START = 0x811c9dc5

/** The FNV-1a state after `text`, from `state`. */
export function hashOn(state: number, text: string): number {
  let h = state
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h
}

/** The FNV-1a state, written short. */
export function hashText(state: number): string {
  return (state >>> 0).toString(36)
}

export function hash(text: string): string {
  return hashText(hashOn(HASH_START, text))
}

const blocks = callCache<Element, boolean>()

/**
 * A `span` styled `display: block` (a card's caption under its title) is a line of its own, and one
 * styled `inline-block` (a "Most popular" badge beside a plan's name) a box of its own: either way its
 * words are apart from those beside it, as Chrome's accessible names have them.
 */
function laidOutAsBlock(el: Element): boolean {
  return remembered(blocks, el, (node) => /^(?:inline-)?(?:block|flex|grid|table)|^(?:flow-root|list-item)/.test(getComputedStyle(node).display))
}

/**
 * Visible text of a subtree in the composed tree, with alt text and child aria-labels; stops near
 * `limit`. `apart` separates the node's own children by a space (the items of a flex or grid box).
 */
export function textOf(node: Node, limit: number, skip: Node | null, includeHidden: boolean, apart = false): string {
  let out = ''
  const visit = (current: Node) => {
    if (out.length >= limit || current === skip) return
    const type = nodeTypeOf(current)
    if (type === 3) {
      out += apart && current.parentNode === node ? ` ${(current as Text).data} ` : (current as Text).data
      return
    }
    if (type !== 1) return
    const el = current as Element
    const tag = localNameOf(el)
    if (SKIP_TAGS.has(tag) || tag === 'input') return
    if (current !== node) {
      if (!includeHidden && (attributeOf(el, 'aria-hidden') === 'true' || hiddenAttribute(el) !== null)) return
      if (!includeHidden && canCheckVisibility && !checkVisibility(el, { visibilityProperty: true, checkVisibilityCSS: true } as CheckVisibilityOptions) && !boxless(el)) return
      const label = attr(el, 'aria-label')
      if (label) {
        out += ` ${label} `
        return
      }
    }
    if (tag === 'img' || tag === 'area') {
      out += ` ${attr(el, 'alt')} `
      return
    }
    const block = BLOCK_TAGS.has(tag) || (apart && parentNodeOf(current) === node) || (!includeHidden && laidOutAsBlock(el))
    if (block) out += ' '
    const children: ArrayLike<Node> =
      shadowRootOf(el)?.childNodes ??
      (tag === 'slot' && (el as HTMLSlotElement).assignedNodes({ flatten: true }).length
        ? (el as HTMLSlotElement).assignedNodes({ flatten: true })
        : childNodesOf(el))
    for (let i = 0; i < children.length && out.length < limit; i++) visit(children[i]!)
    if (block) out += ' '
  }
  visit(node)
  return collapse(out)
}

/**
 * Text of a subtree from its markup alone (no layout, hidden elements included), words separated at
 * block edges: what an extraction rule's `text` reads. Skips the same tags as `textOf`.
 */
export function markupText(root: Node): string {
  let out = ''
  const walk = (node: Node) => {
    for (let child = firstChildOf(node); child; child = nextSiblingOf(child)) {
      const type = nodeTypeOf(child)
      if (type === 3) {
        out += (child as Text).data
      } else if (type === 1) {
        const tag = localNameOf(child as Element)
        if (SKIP_TAGS.has(tag)) continue
        const block = BLOCK_TAGS.has(tag)
        if (block) out += ' '
        walk(child)
        if (block) out += ' '
      }
    }
  }
  walk(root)
  return collapse(out)
}
