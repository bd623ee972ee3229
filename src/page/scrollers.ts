import { composedParent } from './dom.ts'
import { nameOf, roleOf } from './names.ts'
import { HEADINGS } from './nearby.ts'
import { nodeIdOf, type Registry } from './node-ids.ts'
import { clip, textOf } from './text.ts'
import { round, visibility } from './visibility.ts'
import type { RawScroller } from './types.ts'

// Tall scroll containers around what is visible (a docs sidebar, a results pane): the model may
// scroll them by themselves.

/** The visible scroll containers that hold any of `starts`, innermost first, and their nodes. */
export function scrollersAround(reg: Registry, starts: Element[]): { scrollers: RawScroller[]; scrollNodes: Element[] } {
  const scrollers: RawScroller[] = []
  const scrollNodes: Element[] = []
  const visited = new Set<Node>()
  const pageScroller = document.scrollingElement ?? document.documentElement
  for (const start of starts) {
    for (let node = composedParent(start); node && node.nodeType === 1; node = composedParent(node)) {
      if (visited.has(node)) break
      visited.add(node)
      const el = node as Element
      if (el === pageScroller || el === document.body || el === document.documentElement) continue
      if (el.clientHeight < 150 || el.scrollHeight <= el.clientHeight + 8) continue
      const overflow = getComputedStyle(el).overflowY
      if (overflow !== 'auto' && overflow !== 'scroll' && overflow !== 'overlay') continue
      const seen = visibility(el)
      if ('reason' in seen) continue
      const heading = el.querySelector(HEADINGS)
      const label = nameOf(el, roleOf(el), 40) || (heading ? textOf(heading, 60, null, false) : '') || textOf(el, 60, null, false)
      scrollers.push({
        nodeId: nodeIdOf(reg, el),
        name: clip(label || el.localName, 40),
        top: Math.round(el.scrollTop),
        up: el.scrollTop > 0,
        down: el.scrollTop + el.clientHeight < el.scrollHeight - 1,
        rect: round(seen.rect),
        at: seen.at,
      })
      scrollNodes.push(el)
    }
  }
  return { scrollers, scrollNodes }
}
