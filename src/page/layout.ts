import { boundingBox, canCheckVisibility, checkVisibility, localNameOf, nodeTypeOf } from './dom-safe.ts'
import { composedParent } from './dom.ts'

// Layout does not change during one call, but does between calls: each box and each visibility
// answer is read once per call, and every per-call cache is emptied when the call ends so the
// document's nodes are not held between calls.

const resets: Array<() => void> = []

/** A map that lives for one call of the page script (see `beginCall`). */
export function callCache<K, V>(): Map<K, V> {
  const map = new Map<K, V>()
  resets.push(() => map.clear())
  return map
}

/** Viewport width and height, read at the start of each call. */
export let vw = 0
export let vh = 0

/** Starts a call: forgets what the last one measured and reads the viewport. */
export function beginCall(): void {
  endCall()
  vw = window.innerWidth
  vh = window.innerHeight
}

/** Ends a call: drops every cached box and answer. */
export function endCall(): void {
  for (const reset of resets) reset()
  placements = undefined
}

/** Where the browser last placed a node the frame watch follows: in the viewport, outside it, with no box, or `display: contents`. */
export type Placement = 'in' | 'out' | 'none' | 'contents'

/** Where the frame watch placed the nodes it follows, when this call may trust it (frame-watch.ts). */
let placements: WeakMap<Element, Placement> | undefined

export function usePlacements(trusted: WeakMap<Element, Placement> | undefined): void {
  placements = trusted
}

/** Where the browser last placed `el`, when that is known and may be trusted in this call. */
export function placement(el: Element): Placement | undefined {
  return placements?.get(el)
}

const boxes = callCache<Element, DOMRect>()
const renderedAnswers = callCache<Element, boolean>()

export function boxOf(el: Element): DOMRect {
  let box = boxes.get(el)
  if (!box) {
    box = boundingBox(el)
    boxes.set(el, box)
  }
  return box
}

/** The answer `cache` holds for `key`, computed and kept on the first ask. */
export function remembered<K, V>(cache: Map<K, V>, key: K, compute: (key: K) => V): V {
  if (cache.has(key)) return cache.get(key)!
  const answer = compute(key)
  cache.set(key, answer)
  return answer
}

export function rendered(el: Element): boolean {
  return remembered(renderedAnswers, el, renderedNow)
}

function renderedNow(el: Element): boolean {
  if (canCheckVisibility) {
    return checkVisibility(el, { opacityProperty: true, visibilityProperty: true, checkOpacity: true, checkVisibilityCSS: true, contentVisibilityAuto: true } as CheckVisibilityOptions)
  }
  // Engines without checkVisibility (jsdom): walk the ancestors' computed style.
  const own = getComputedStyle(el)
  if (own.visibility === 'hidden' || own.visibility === 'collapse') return false
  for (let node: Node | null = el; node; node = composedParent(node)) {
    if (nodeTypeOf(node) !== 1) continue
    const style = getComputedStyle(node as Element)
    if (style.display === 'none' || style.opacity === '0') return false
  }
  return true
}

/** `display: contents` (slots, framework wrappers): no box of its own, its children render. */
export function boxless(el: Element): boolean {
  return localNameOf(el) === 'slot' || getComputedStyle(el).display === 'contents'
}

/** The element itself, or for a box-less one the nearest ancestor with a box. */
export function boxed(el: Element): Element | null {
  let node: Node | null = el
  while (node && nodeTypeOf(node) === 1 && boxless(node as Element)) node = composedParent(node)
  return node && nodeTypeOf(node) === 1 ? (node as Element) : null
}
