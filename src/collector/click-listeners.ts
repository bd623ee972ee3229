import type { ElementHandle, Frame } from 'puppeteer-core'
import { adoptNode, frameSession, isolatedWorld } from '../browser/isolated-world.ts'

// The elements of a frame that the page gave a click, press or touch listener, read from the browser
// (CDP `DOMDebugger.getEventListeners` over the whole document, shadow roots included, in one call)
// and handed to the page script as handles in its isolated world. Nothing runs in the page's world.
// Handles are kept from one observation to the next, so only nodes that gained a listener since are
// looked up (a lookup is one round trip each).

/** The events by which a page makes an element clickable. */
const CLICK_EVENTS = new Set(['click', 'dblclick', 'auxclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend'])
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

/** The backend IDs of the nodes with a click-like listener, framework roots left out. */
function clickableIds(listeners: Listener[]): number[] {
  const types = new Map<number, Set<string>>()
  for (const { type, backendNodeId } of listeners) {
    if (!backendNodeId) continue
    let set = types.get(backendNodeId)
    if (!set) types.set(backendNodeId, (set = new Set()))
    set.add(type)
  }
  const ids: number[] = []
  for (const [id, set] of types) {
    if (set.size >= ROOT_EVENT_TYPES) continue
    for (const type of set) {
      if (!CLICK_EVENTS.has(type)) continue
      ids.push(id)
      break
    }
  }
  return ids
}

/**
 * Handles, in the frame's isolated world, of its elements with a click-like listener. `fresh` drops
 * what was kept (the document was replaced). Never fails: a frame whose listeners cannot be read
 * offers what its markup shows. With `withinMs`, none are returned once that time has passed; the
 * lookup goes on and fills the cache for the next observation.
 */
export async function listenedElements(frame: Frame, cache: ListenerCache, fresh: boolean, withinMs?: number): Promise<ElementHandle<Element>[]> {
  const lookup = lookUp(frame, cache, fresh)
  if (withinMs === undefined) return lookup
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<ElementHandle<Element>[]>((resolve) => {
    timer = setTimeout(() => resolve([]), withinMs)
  })
  try {
    return await Promise.race([lookup, late])
  } finally {
    clearTimeout(timer)
  }
}

async function lookUp(frame: Frame, cache: ListenerCache, fresh: boolean): Promise<ElementHandle<Element>[]> {
  if (fresh) releaseListeners(frame, cache)
  let ids: number[]
  try {
    ids = clickableIds(await readListeners(frame, cache))
  } catch {
    // The document object went with its document: read once more from the new one.
    releaseListeners(frame, cache)
    try {
      ids = clickableIds(await readListeners(frame, cache))
    } catch {
      return []
    }
  }
  const wanted = new Set(ids)
  for (const [id, handle] of cache.nodes) {
    if (wanted.has(id)) continue
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
  return ids.map((id) => cache.nodes.get(id)).filter((handle): handle is ElementHandle<Element> => !!handle)
}
