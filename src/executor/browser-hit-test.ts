import type { ElementHandle, Frame, JSHandle, Page } from 'puppeteer-core'
import { adoptNode, frameId, frameSession, isolatedWorld } from '../browser/isolated-world.ts'
import type { InputWatch } from '../page/watch-input.ts'

// The last look before a press is the browser's own hit test (CDP DOM.getNodeForLocation), made after
// the pointer has reached the point, so whatever the page's pointer handlers did is already in place, and
// no page JavaScript can answer in its stead. A renderer sees an out-of-process frame as its iframe
// element, so the test goes on inside such a frame, with the point moved into its viewport. The browser
// takes points in document coordinates of the frame that heads the renderer: its scroll is added.

/** Out-of-process frames followed at most; a page that nests deeper is treated as not reached. */
const MAX_FRAME_DEPTH = 8
/** Frame URLs in messages are the page's to choose: clipped. */
const URL_LIMIT = 100
/**
 * Chrome's answer when no node is at the point (outside the viewport, say). Any other failure is
 * thrown: a gone document is the caller's to read, and anything else is not "nothing there".
 */
const NO_NODE = /No node found at given location/i

export type HitResult = { onTarget: true } | { onTarget: false; found: string }

/**
 * What a hit test can know before the pointer is where it will be, read while the input is prepared:
 * the target's own node (a hit on it needs no look inside the page), and, only where the pointer will
 * not move first, the top frame's scroll.
 */
export interface HitFacts {
  targetNode?: number
  scroll?: [number, number]
}

/**
 * The top frame's scroll (read now), and the target's backend node ID. Never rejects: what cannot be
 * read here (a document gone) is read by the hit test itself, which says what became of it.
 */
export async function hitFacts(page: Page, target: ElementHandle<Element>, withScroll: boolean): Promise<HitFacts> {
  const node = frameSession(target.frame)
    .send('DOM.describeNode', { objectId: target.remoteObject().objectId! })
    .then(({ node }) => node.backendNodeId)
    .catch(() => undefined)
  const scroll = withScroll ? scrollOf(page.mainFrame()).catch(() => undefined) : undefined
  const [targetNode, scrolled] = await Promise.all([node, scroll])
  return { ...(targetNode === undefined ? {} : { targetNode }), ...(scrolled ? { scroll: scrolled } : {}) }
}

function scrollOf(frame: Frame): Promise<[number, number]> {
  return isolatedWorld(frame).evaluate(() => [window.scrollX, window.scrollY] as [number, number])
}

function contains(ancestor: Frame, frame: Frame): boolean {
  for (let current: Frame | null = frame; current; current = current.parentFrame()) if (current === ancestor) return true
  return false
}

function clipUrl(url: string): string {
  return url.length > URL_LIMIT ? `${url.slice(0, URL_LIMIT)}…` : url
}

/** The element at a point of the frame's viewport, as its isolated world's hit test finds it. */
async function elementAt(frame: Frame, x: number, y: number): Promise<ElementHandle<Element> | null> {
  const handle = await isolatedWorld(frame).evaluateHandle((px, py) => document.elementFromPoint(px, py), x, y)
  const element = handle.asElement()
  if (!element) await handle.dispose()
  return element as ElementHandle<Element> | null
}

/**
 * What the browser finds at `point` (top-viewport CSS pixels): the target (or a node inside it, or a label
 * of it), or a short name of what is there instead. `watch` is the input watch armed on the target.
 */
export async function browserHitTest(
  page: Page,
  target: ElementHandle<Element>,
  watch: JSHandle<InputWatch>,
  point: { x: number; y: number },
  facts: HitFacts = {},
): Promise<HitResult> {
  let frame = page.mainFrame()
  let x = point.x
  let y = point.y
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
    const session = frameSession(frame)
    const [scrollX, scrollY] = depth === 0 && facts.scroll ? facts.scroll : await scrollOf(frame)
    let hit: { backendNodeId: number; frameId: string }
    try {
      hit = await session.send('DOM.getNodeForLocation', {
        x: Math.round(x + scrollX!),
        y: Math.round(y + scrollY!),
        includeUserAgentShadowDOM: false,
        ignorePointerEventsNone: false,
      })
    } catch (error) {
      if (error instanceof Error && NO_NODE.test(error.message)) return { onTarget: false, found: 'nothing' }
      throw error
    }
    const owner = page.frames().find((candidate) => frameId(candidate) === hit.frameId)
    if (!owner) return { onTarget: false, found: 'a node of a frame the page does not list' }
    // The target itself is there: nothing to ask the page.
    if (owner === target.frame && facts.targetNode !== undefined && hit.backendNodeId === facts.targetNode) return { onTarget: true }
    // A pseudo-element (an icon font's ::before glyph) is no element: the element that draws it is
    // what the browser's own hit test of that frame finds there.
    const node = (await adoptNode(owner, hit.backendNodeId)) ?? (owner === frame ? await elementAt(frame, x, y) : null)
    if (!node) return { onTarget: false, found: 'a node that is not an element' }
    try {
      if (owner === target.frame) {
        const verdict = await watch.evaluate((armed, found) => armed.judge(found), node)
        return verdict.onTarget ? { onTarget: true } : { onTarget: false, found: verdict.name }
      }
      const child = await node.contentFrame()
      // A same-process frame's content would have been hit directly: its iframe element means its border.
      if (!child) return { onTarget: false, found: `an element of the frame at ${clipUrl(owner.url())}` }
      if (frameSession(child) === session || !contains(child, target.frame)) return { onTarget: false, found: `a frame showing ${clipUrl(child.url())}` }
      // Box model quads are in viewport coordinates.
      const { model } = await session.send('DOM.getBoxModel', { backendNodeId: hit.backendNodeId })
      x -= model.content[0]!
      y -= model.content[1]!
      frame = child
    } finally {
      void node.dispose().catch(() => {})
    }
  }
  return { onTarget: false, found: `frames nested deeper than ${MAX_FRAME_DEPTH}` }
}
