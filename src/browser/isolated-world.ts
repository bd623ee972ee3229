import type { CDPSession, ElementHandle, Frame, JSHandle, Realm } from 'puppeteer-core'

// Every script of ours runs in an isolated world of its frame, never in the page's own: the page shares
// the DOM with it, but not one JavaScript object, so a page that replaces `Array.prototype.map`,
// `JSON.stringify`, `elementFromPoint` or `MutationObserver`, or plants a value under our symbol on
// `document`, changes nothing we compute. Puppeteer keeps such a world in every frame (its utility world,
// re-created with each document) but marks the accessors internal; this module is the one place that
// reaches them, and it fails with a clear message if a Puppeteer release removes them.

/** The parts of Puppeteer's CDP frame used here; present in puppeteer-core 25, internal to it. */
interface CdpFrame {
  _id: string
  /** The loader of the frame's current document: a new one with each document the frame loads. */
  _loaderId: string
  client: CDPSession
  isolatedRealm(): Realm & { adoptBackendNode(backendNodeId: number): Promise<JSHandle<Node>> }
}

function internals(frame: Frame): CdpFrame {
  const cdp = frame as unknown as Partial<CdpFrame>
  if (typeof cdp.isolatedRealm !== 'function' || typeof cdp._id !== 'string' || !cdp.client) {
    throw new Error(
      'puppeteer-agent needs a CDP connection to Chrome (a Frame with an isolated world and a CDP session); this Puppeteer frame has none. WebDriver BiDi is not supported.',
    )
  }
  return cdp as CdpFrame
}

/** The frame's isolated world, where every page script of ours runs. */
export function isolatedWorld(frame: Frame): Realm {
  return internals(frame).isolatedRealm()
}

/** The CDP session that talks to the renderer holding this frame (its own for an out-of-process frame). */
export function frameSession(frame: Frame): CDPSession {
  return internals(frame).client
}

/**
 * Names the frame's current document: it changes when the frame loads another document (not with a
 * same-document navigation). A hint only: Puppeteer learns of a new document with its first lifecycle event.
 */
export function documentLoader(frame: Frame): string {
  return String(internals(frame)._loaderId)
}

/** The frame's CDP frame ID. */
export function frameId(frame: Frame): string {
  return internals(frame)._id
}

/** A DOM node the browser named by backend ID, as a handle in the frame's isolated world. */
export async function adoptNode(frame: Frame, backendNodeId: number): Promise<ElementHandle<Element> | null> {
  const handle = await internals(frame).isolatedRealm().adoptBackendNode(backendNodeId)
  const element = handle.asElement()
  if (!element) await handle.dispose()
  return element as ElementHandle<Element> | null
}

/** The iframe element that holds `frame`, as a handle in its parent's isolated world; null for a top frame. */
export async function frameOwner(frame: Frame): Promise<ElementHandle<Element> | null> {
  const parent = frame.parentFrame()
  if (!parent) return null
  const { backendNodeId } = await frameSession(parent).send('DOM.getFrameOwner', { frameId: frameId(frame) })
  return adoptNode(parent, backendNodeId)
}
