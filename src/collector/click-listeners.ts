import type { ElementHandle, Frame } from 'puppeteer-core'
import { adoptNode, frameSession } from '../browser/isolated-world.ts'

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
/** The events by which an element (or the page) reads key presses itself. */
const KEY_EVENTS = new Set(['keydown', 'keypress', 'keyup'])
/** The events of a place something dragged can be dropped on. */
const DROP_EVENTS = new Set(['drop', 'dragover', 'dragenter'])
/**
 * The events the pointer's arrival sends: where any listens on the way to a control, the pointer is
 * moved onto it, and the page given its frame to react, before the press.
 */
const POINTER_EVENTS = new Set([
  'pointermove', 'mousemove', 'pointerover', 'mouseover', 'pointerenter', 'mouseenter', 'pointerout', 'mouseout', 'pointerleave', 'mouseleave',
])
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
  /** Its backend node ID: its own listeners are the whole page's, not one control's. */
  documentNode?: Promise<number>
  /** Its window, the same way: listeners on it are not the document's. */
  window?: Promise<string>
  /** The document or the window listens to the pointer's moves, as of the last lookup. */
  pointerEverywhere: boolean
  /** The document or the window listens for keys, as of the last lookup. */
  keysEverywhere?: boolean
  /** Handle by backend node ID; null for a node that is not an element of this frame. */
  nodes: Map<number, ElementHandle<Element> | null>
  /** What the last observation of this document was handed: the next one starts from it. */
  used?: { listened: ListenedElement[]; pointerEverywhere: boolean }
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

/** Whether two lookups found the same elements for the same inputs, in the same order. */
export function sameListened(a: readonly ListenedElement[], b: readonly ListenedElement[]): boolean {
  return a.length === b.length && a.every((element, i) => element.handle === b[i]!.handle && element.kinds === b[i]!.kinds)
}

/** Releases what a frame's cache holds. */
export function releaseListeners(frame: Frame, cache: ListenerCache): void {
  for (const handle of cache.nodes.values()) void handle?.dispose().catch(() => {})
  cache.nodes.clear()
  cache.used = undefined
  const document = cache.document
  const window = cache.window
  cache.document = undefined
  cache.documentNode = undefined
  cache.window = undefined
  void document?.then((objectId) => frameSession(frame).send('Runtime.releaseObject', { objectId })).catch(() => {})
  void window?.then((objectId) => frameSession(frame).send('Runtime.releaseObject', { objectId })).catch(() => {})
}

/**
 * The document and the window of the frame's main world. Both are unforgeable properties of the global
 * object, so evaluating their names runs nothing of the page's (a page cannot declare a global of
 * either name). The listener call reads from main-world objects: the same call with `pierce` on an
 * object of the isolated world crashed the renderer within a few observations (Chrome 156).
 */
async function mainWorldObject(frame: Frame, name: 'document' | 'window'): Promise<string> {
  const handle = await frame.evaluateHandle(name)
  const objectId = handle.remoteObject().objectId
  if (!objectId) throw new Error(`The ${name} of frame ${frame.url()} did not resolve to an object.`)
  return objectId
}

async function readListeners(frame: Frame, cache: ListenerCache): Promise<{ listeners: Listener[]; documentNode: number; windowTypes: string[] }> {
  cache.document ??= mainWorldObject(frame, 'document')
  cache.window ??= mainWorldObject(frame, 'window')
  const [objectId, windowId] = await Promise.all([cache.document, cache.window])
  const session = frameSession(frame)
  cache.documentNode ??= session.send('DOM.describeNode', { objectId }).then(({ node }) => node.backendNodeId)
  // `pierce` reaches into open shadow roots (and child frames, whose nodes do not resolve here).
  const [{ listeners }, onWindow, documentNode] = await Promise.all([
    session.send('DOMDebugger.getEventListeners', { objectId, depth: -1, pierce: true }),
    session.send('DOMDebugger.getEventListeners', { objectId: windowId, depth: 0 }),
    cache.documentNode,
  ])
  return { listeners, documentNode, windowTypes: onWindow.listeners.map((listener) => listener.type) }
}

const listensToPointer = (types: Iterable<string>) => [...types].some((type) => POINTER_EVENTS.has(type))

const listensToKeys = (types: Iterable<string>) => [...types].some((type) => KEY_EVENTS.has(type))

/**
 * What a node's listener types make it: `c` clickable, `d` draggable, `h` hoverable, `o` a drop target,
 * `m` one that follows the pointer's moves, `k` one that reads keys; '' for none.
 */
function kindsOf(types: ReadonlySet<string>): string {
  const has = (events: ReadonlySet<string>) => [...types].some((type) => events.has(type))
  const click = types.has('click') || types.has('dblclick') || types.has('auxclick')
  const pointer = listensToPointer(types) ? 'm' : ''
  const keys = listensToKeys(types) ? 'k' : ''
  return `${has(CLICK_EVENTS) ? 'c' : ''}${(has(PRESS_EVENTS) && !click) || types.has('dragstart') ? 'd' : ''}${has(HOVER_EVENTS) ? 'h' : ''}${has(DROP_EVENTS) ? 'o' : ''}${pointer}${keys}`
}

/**
 * The backend IDs of the nodes with an input listener and what for. A framework's root is no control,
 * but its handlers follow the pointer over everything inside it.
 */
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
    if (set.size >= ROOT_EVENT_TYPES) {
      if (listensToPointer(set)) ids.set(id, 'm')
      continue
    }
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
  let read: Awaited<ReturnType<typeof readListeners>>
  try {
    read = await readListeners(frame, cache)
  } catch {
    // The document object went with its document: read once more from the new one.
    releaseListeners(frame, cache)
    try {
      read = await readListeners(frame, cache)
    } catch {
      cache.pointerEverywhere = true
      return []
    }
  }
  const found = listenedIds(read.listeners)
  // The document is no element to hand over: its listeners count for every control, as the window's do.
  cache.pointerEverywhere = found.get(read.documentNode)?.includes('m') === true || listensToPointer(read.windowTypes)
  cache.keysEverywhere = found.get(read.documentNode)?.includes('k') === true || listensToKeys(read.windowTypes)
  found.delete(read.documentNode)
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
