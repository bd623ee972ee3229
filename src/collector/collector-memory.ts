import type { ElementHandle, Frame, JSHandle } from 'puppeteer-core'
import type { Point } from '../page/types.ts'
import type { Snapshot } from './observation.ts'
import { frameOwner } from '../browser/isolated-world.ts'
import { releaseListeners, type ListenerCache } from './click-listeners.ts'

// What one observation hands the next, and its release: the handles of offered nodes, the points each
// frame passed up, each iframe's element and the listeners found per frame. It travels in the
// snapshot, never in module state, and whoever holds it releases its handles.

type Handle = ElementHandle<Element>

/** What a snapshot hands the next observation. Whoever holds the memory releases its handles. */
export interface CollectorMemory {
  /** The handles the snapshot holds, by node ID, once `ready` has settled. */
  handles: Map<string, Handle>
  /** Settles once `handles` is filled. */
  ready: Promise<void>
  /** The points each frame passed up last time: its parent hit-tests them ahead of time. */
  framePoints: Map<Frame, Point[]>
  /** Each iframe element, looked up once while its frame lives. */
  owners: Map<Frame, Owner>
  /** Per frame, the elements with a click listener found so far. */
  listeners: Map<Frame, ListenerCache>
}

/** A snapshot taken by observe(): it carries the memory the next observation takes over. */
export interface CollectorSnapshot extends Snapshot {
  memory: CollectorMemory
}

function emptyMemory(): CollectorMemory {
  return { handles: new Map(), framePoints: new Map(), owners: new Map(), listeners: new Map(), ready: Promise.resolve() }
}

/** Takes the previous snapshot's memory, leaving it empty so its dispose() releases nothing kept. */
export function takeMemory(previous: Snapshot | undefined): CollectorMemory {
  if (!previous || !('memory' in previous)) return emptyMemory()
  const snapshot = previous as CollectorSnapshot
  const taken = snapshot.memory
  snapshot.memory = emptyMemory()
  return taken
}

export function release(handles: Iterable<JSHandle>): Promise<unknown> {
  return Promise.all(Array.from(handles, (handle) => handle.dispose().catch(() => {})))
}

/** Releases on a later turn: sending one message per handle would otherwise delay the caller. */
export function releaseLater(release: () => Promise<unknown>): void {
  setImmediate(() => void release().catch(() => {}))
}


// Each iframe element is looked up once and kept while its frame lives: the lookup costs two
// round trips. A kept handle goes stale when the parent document is replaced; the call then fails and
// is made again with fresh handles. A lookup that found nothing is tried again next time.
interface Owner {
  handle: Promise<Handle | null>
  missing: boolean
}

export function ownerOf(memory: CollectorMemory, frame: Frame, fresh = false): Promise<Handle | null> {
  let owner = memory.owners.get(frame)
  if (!owner || owner.missing || fresh) {
    if (owner) void owner.handle.then((stale) => stale?.dispose().catch(() => {}))
    const created: Owner = { handle: Promise.resolve(null), missing: false }
    created.handle = frameOwner(frame).then(
      (found) => {
        created.missing = !found
        return found as Handle | null
      },
      () => {
        created.missing = true
        return null
      },
    )
    memory.owners.set(frame, (owner = created))
  }
  return owner.handle
}

/** Forgets frames that are gone: their points, and their iframe handles, which are released. */
export function forgetFrames(memory: CollectorMemory, frames: Set<Frame>): void {
  for (const [frame, owner] of memory.owners) {
    if (frames.has(frame) && !frame.detached) continue
    memory.owners.delete(frame)
    void owner.handle.then((handle) => handle?.dispose().catch(() => {}))
  }
  for (const frame of memory.framePoints.keys()) if (!frames.has(frame) || frame.detached) memory.framePoints.delete(frame)
  for (const [frame, cache] of memory.listeners) {
    if (frames.has(frame) && !frame.detached) continue
    memory.listeners.delete(frame)
    releaseListeners(frame, cache)
  }
}

/** Releases everything a memory holds: node handles and iframe handles. */
export async function releaseMemory(memory: CollectorMemory): Promise<void> {
  await memory.ready
  const owners = await Promise.all(Array.from(memory.owners.values(), (owner) => owner.handle))
  const handles = [...new Set(memory.handles.values()), ...owners.filter((handle): handle is Handle => handle !== null)]
  for (const [frame, cache] of memory.listeners) releaseListeners(frame, cache)
  memory.handles = new Map()
  memory.owners = new Map()
  memory.framePoints = new Map()
  memory.listeners = new Map()
  await release(handles)
}
