import type { ElementHandle, Frame } from 'puppeteer-core'
import { adoptNode, frameSession, isolatedWorld } from '../browser/isolated-world.ts'

// The elements of a frame that the page gave a click, press, touch, hover or drop listener, read from the browser
// (CDP `DOMDebugger.getEventListeners` over the whole document, shadow roots included, in one call)
// and handed to the page script as handles in its isolated world. Nothing runs in the page's world.
// Handles are kept from one observation to the next, so only nodes that gained a listener since are
// looked up (a lookup is one round trip each).

/** The events by which a page makes an element clickable. */
const CLICK_EVENTS = new Set(['click', 'dblclick', 'auxclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend'])
/** The events of a press that, without a click listener, start a drag (a sortable list, a slider's thumb). */
const PRESS_EVENTS = new Set(['mousedown', 'pointerdown', 'touchstart', 'dragstart'])
/** The events by which hovering an element shows something (a menu, a tooltip). */
const HOVER_EVENTS = new Set(['mouseenter', 'mouseover', 'pointerenter', 'pointerover'])
/** The events of a place something dragged can be dropped on. */
const DROP_EVENTS = new Set(['drop', 'dragover', 'dragenter'])
/**
 * A node listening for this many event types is a framework's root (React listens for every event on
 * its container), not a control: its own handlers dispatch to the elements inside it.
 */
const ROOT_EVENT_TYPES = 12
/**
 * New listened nodes looked up per observation. A page that binds a handler to each of thousands of
 * rows would otherwise make its first observation take a second; later ones pick up the rest.
 */
const LOOKUPS_PER_OBSERVATION = 300

export interface ListenerCache {
  /** The frame's document as a remote object of its main world, held by CDP only (what the listener call reads from). */
  document?: Promise<string>
  /** Handle by backend node ID; null for a node that is not an element of this frame. */
  nodes: Map<number, ElementHandle<Element> | null>
}

interface Listener {
  type: string
  backendNodeId?: number
}

/** An element with listeners, and what they are for, in the letters of `ObserveRequest.listenedKinds`. */
export interface ListenedElement {
  handle: ElementHandle<Element>
  kinds: string
}

/** Releases what a frame's cache holds. */
export function releaseListeners(frame: Frame, cache: ListenerCache): void {
  for (const handle of cache.nodes.values()) void handle?.dispose().catch(() => {})
  cache.nodes.clear()
  const document = cache.document
  cache.document = undefined
  void document?.then((objectId) => frameSession(frame).send('Runtime.releaseObject', { objectId })).catch(() => {})
}

/**
 * The document as an object of the frame's main world, reached through CDP alone (no script runs
 * there). Read from an object of the isolated world instead, the same call with `pierce` crashed the
 * renderer within a few observations (Chrome 156).
 */
async function mainWorldDocument(frame: Frame): Promise<string> {
  const session = frameSession(frame)
  const isolated = await isolatedWorld(frame).evaluateHandle(() => document)
  try {
    const { node } = await session.send('DOM.describeNode', { objectId: isolated.remoteObject().objectId! })
    const { object } = await session.send('DOM.resolveNode', { backendNodeId: node.backendNodeId })
    if (!object.objectId) throw new Error(`The document of frame ${frame.url()} did not resolve to an object.`)
    return object.objectId
  } finally {
    void isolated.dispose().catch(() => {})
  }
}

async function readListeners(frame: Frame, cache: ListenerCache): Promise<Listener[]> {
  cache.document ??= mainWorldDocument(frame)
  const objectId = await cache.document
  // `pierce` reaches into open shadow roots (and child frames, whose nodes do not resolve here).
  const { listeners } = await frameSession(frame).send('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true })
  return listeners
}

/** What a node's listener types make it: `c` clickable, `d` draggable, `h` hoverable, `o` a drop target; '' for none. */
function kindsOf(types: ReadonlySet<string>): string {
  const has = (events: ReadonlySet<string>) => [...types].some((type) => events.has(type))
  const click = types.has('click') || types.has('dblclick') || types.has('auxclick')
  return `${has(CLICK_EVENTS) ? 'c' : ''}${(has(PRESS_EVENTS) && !click) || types.has('dragstart') ? 'd' : ''}${has(HOVER_EVENTS) ? 'h' : ''}${has(DROP_EVENTS) ? 'o' : ''}`
}

/** The backend IDs of the nodes with an input listener and what for, framework roots left out. */
function listenedIds(listeners: Listener[]): Map<number, string> {
  const types = new Map<number, Set<string>>()
  for (const { type, backendNodeId } of listeners) {
    if (!backendNodeId) continue
    let set = types.get(backendNodeId)
    if (!set) types.set(backendNodeId, (set = new Set()))
    set.add(type)
  }
  const ids = new Map<number, string>()
  for (const [id, set] of types) {
    if (set.size >= ROOT_EVENT_TYPES) continue
    const kinds = kindsOf(set)
    if (kinds) ids.set(id, kinds)
  }
  return ids
}

/**
 * Handles, in the frame's isolated world, of its elements with an input listener, and what for. `fresh` drops
 * what was kept (the document was replaced). Never fails: a frame whose listeners cannot be read
 * offers what its markup shows. With `withinMs`, none are returned once that time has passed; the
 * lookup goes on and fills the cache for the next observation.
 */
export async function listenedElements(frame: Frame, cache: ListenerCache, fresh: boolean, withinMs?: number): Promise<ListenedElement[]> {
  const lookup = lookUp(frame, cache, fresh)
  if (withinMs === undefined) return lookup
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<ListenedElement[]>((resolve) => {
    timer = setTimeout(() => resolve([]), withinMs)
  })
  try {
    return await Promise.race([lookup, late])
  } finally {
    clearTimeout(timer)
  }
}

async function lookUp(frame: Frame, cache: ListenerCache, fresh: boolean): Promise<ListenedElement[]> {
  if (fresh) releaseListeners(frame, cache)
  let found: Map<number, string>
  try {
    found = listenedIds(await readListeners(frame, cache))
  } catch {
    // The document object went with its document: read once more from the new one.
    releaseListeners(frame, cache)
    try {
      found = listenedIds(await readListeners(frame, cache))
    } catch {
      return []
    }
  }
  const ids = [...found.keys()]
  for (const [id, handle] of cache.nodes) {
    if (found.has(id)) continue
    cache.nodes.delete(id)
    void handle?.dispose().catch(() => {})
  }
  const missing = ids.filter((id) => !cache.nodes.has(id)).slice(0, LOOKUPS_PER_OBSERVATION)
  await Promise.all(
    missing.map(async (id) => {
      // A node of a child frame (the call pierces frames too) does not resolve here: kept as null.
      const handle = await adoptNode(frame, id).catch(() => null)
      cache.nodes.set(id, handle)
    }),
  )
  const listened: ListenedElement[] = []
  for (const id of ids) {
    const handle = cache.nodes.get(id)
    if (handle) listened.push({ handle, kinds: found.get(id)! })
  }
  return listened
}
