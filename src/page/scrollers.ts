import { clientHeightOf, localNameOf, nodeTypeOf, queryOne, scrollHeightOf, scrollTopOf } from './dom-safe.ts'
import { composedParent } from './dom.ts'
import { isField, layoutName } from './layout-names.ts'
import { nameOf, roleOf } from './names.ts'
import { HEADINGS } from './nearby.ts'
import { nodeIdOf, type Registry } from './node-ids.ts'
import { shorten, textOf } from './text.ts'
import { round, visibility } from './visibility.ts'
import type { RawScroller } from './types.ts'

// Scroll containers around and at what is visible (a docs sidebar, a results pane, a textarea, a
// list box): the model may scroll them by themselves, to read what they hold past their edge.

/**
 * Two lines of text. A box that scrolls but shows less is a one-line ticker or a clipped label, not
 * something a person reads by scrolling; and scrollByPage moves at least 40 pixels a step, a whole
 * view of such a box.
 */
const MIN_HEIGHT = 40

/** Content past the box's bottom by more than this: a few pixels of a descender or a border are no scrolling. */
const SLACK = 8

function scrollable(el: Element): boolean {
  const height = clientHeightOf(el)
  if (height < MIN_HEIGHT || scrollHeightOf(el) <= height + SLACK) return false
  // A textarea scrolls with its caret and the wheel whatever its overflow says (an autosizing one that
  // hides its bar included), and scrollBy moves it.
  if (localNameOf(el) === 'textarea') return true
  const overflow = getComputedStyle(el).overflowY
  return overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay'
}

/** What the model calls the container: a field by its name, as the element list names it; else its heading, else its text. */
function nameOfScroller(el: Element): string {
  const named = nameOf(el, roleOf(el), 40) || (isField(el) ? layoutName(el) : '')
  if (named) return named
  const heading = queryOne(el, HEADINGS)
  return (heading ? textOf(heading, 60, null, false) : '') || textOf(el, 60, null, false)
}

/**
 * The visible scroll containers at and around `starts` (each start itself, then its ancestors),
 * innermost first, at most `max`, and their nodes. Starts come in the order the page offers them,
 * so the cap keeps the containers of the first controls and text.
 */
export function scrollersAround(reg: Registry, starts: Element[], max: number): { scrollers: RawScroller[]; scrollNodes: Element[] } {
  const scrollers: RawScroller[] = []
  const scrollNodes: Element[] = []
  const visited = new Set<Node>()
  const pageScroller = document.scrollingElement ?? document.documentElement
  for (const start of starts) {
    for (let node: Node | null = start; node && nodeTypeOf(node) === 1; node = composedParent(node)) {
      if (scrollers.length >= max) return { scrollers, scrollNodes }
      if (visited.has(node)) break
      visited.add(node)
      const el = node as Element
      if (el === pageScroller || el === document.body || el === document.documentElement) continue
      if (!scrollable(el)) continue
      const seen = visibility(el)
      if ('reason' in seen) continue
      const top = scrollTopOf(el)
      scrollers.push({
        nodeId: nodeIdOf(reg, el),
        name: shorten(nameOfScroller(el) || localNameOf(el), 40),
        top: Math.round(top),
        up: top > 0,
        down: top + clientHeightOf(el) < scrollHeightOf(el) - 1,
        rect: round(seen.rect),
        at: seen.at,
      })
      scrollNodes.push(el)
    }
  }
  return { scrollers, scrollNodes }
}
