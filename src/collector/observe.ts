import { randomBytes } from 'node:crypto'
import type { ElementHandle, Frame, Page } from 'puppeteer-core'
import type { ObservedFrame, Snapshot } from './observation.ts'
import type { ChildReport, FrameReport, ObserveRequest, Point } from '../page/types.ts'
import { finishedWithin } from '../base/deadline.ts'
import { isDocumentGone, isHandleReleased } from '../base/gone.ts'
import { log } from '../base/log.ts'
import { PageGoneError } from '../errors.ts'
import { callInFrame } from '../browser/page-script.ts'
import { listenedElements, sameListened, type ListenedElement, type ListenerCache } from './click-listeners.ts'
import { forgetFrames, ownerOf, release, releaseLater, releaseMemory, takeMemory, type CollectorMemory, type CollectorSnapshot } from './collector-memory.ts'
import { mergeFrames, type PlacedFrame } from './merge.ts'
import { takeHandles, type FrameHandles } from './take-handles.ts'
import { shownFrames } from './shown-frames.ts'
import { LIMITS } from './limits.ts'

// The Node side of the collector. Every frame runs the page script once, all at the same time. A
// control inside a frame is offered only where the top page really shows it: the parent hit-tests the
// control's point against the iframe. The parent is handed the points its child frame reported last
// time; when they moved, the parent checks the new ones in one small extra call.
// Handles: a snapshot holds one per offered node. The next observation takes over those of nodes it
// offers again, so the page only sends nodes that are new, and only nodes that are gone are released.
// The observation is handed on once the frames have reported; the new nodes are taken from the page
// after that, while the model decides (take-handles.ts), and the snapshot's `ready` says when.
// What one observation hands the next travels in the snapshot (its memory), never in module state.
// The memory one observation hands the next is kept in collector-memory.ts.

export interface ObserveOptions {
  /** The snapshot this one replaces; its handles are released. */
  previous?: Snapshot
  /** URLs of tabs the page opened since the previous observation. */
  popups?: string[]
}

type Handle = ElementHandle<Element>
/** A handle of a frame's report, read once the frame's nodes are taken. */
type Slot = () => Handle | undefined
type Observe = ObserveRequest

/** A point a frame passes up, and the element, blocker or scroller of which frame it stands for. */
interface Sighting {
  run: FrameRun
  kind: 'elements' | 'blockers' | 'scrollers'
  index: number
  point: Point
}

interface FrameRun {
  frame: Frame
  parent: FrameRun | undefined
  children: FrameRun[]
  depth: number
  report?: FrameReport
  /** Filled once `handles` settles. */
  elementHandles: Handle[]
  scrollHandles: Handle[]
  /** Settles once the handles of the report's nodes are taken, or known not to come. */
  handles?: Promise<void>
  /** Children whose iframe this frame was handed, in argument order. */
  asked: FrameRun[]
  /** What this frame saw of each child's iframe: its box, and hit results by point. */
  seen: Map<FrameRun, { child: ChildReport; hits: Map<string, Point | null> }>
  /** This frame's own points, then the child points it shows, in its own viewport. */
  sightings: Sighting[]
}

// A random token per document keeps node IDs (`d3f9a1c2:17`) from repeating across documents and
// frames, without counting documents anywhere.
function documentToken(): string {
  return `d${randomBytes(4).toString('hex')}`
}

const key = (point: Point) => `${point[0]},${point[1]}`

/** Runs the page script in a frame for its report, which comes back with the call's answer. */
async function evaluateFrame(run: FrameRun, request: Observe, owners: Handle[]): Promise<void> {
  const json: unknown = await callInFrame(run.frame, 'observe', request, ...owners)
  if (typeof json !== 'string') throw new Error(`The collector script returned no report in frame ${run.frame.url()}`)
  run.report = JSON.parse(json) as FrameReport
}

/**
 * Takes the handles of a frame's report into the run, a child frame's within its bound. A frame whose
 * nodes cannot be taken (its document replaced meanwhile) keeps none: the freshness check finds such
 * a target stale ('node not taken'), and the page is observed again.
 */
async function runHandles(run: FrameRun, key: string, held: Map<string, Handle>): Promise<void> {
  const taking = takeHandles(run.frame, run.report!, key, held)
  try {
    const late = (handles: FrameHandles) => release([...handles.elements, ...handles.scrollers])
    if (run.parent && !(await finishedWithin(taking, LIMITS.frameTimeoutMs, late))) {
      log('observe: the frame at %s did not give its nodes within %d ms', run.frame.url(), LIMITS.frameTimeoutMs)
      return
    }
    const taken = await taking
    run.elementHandles = taken.elements
    run.scrollHandles = taken.scrollers
  } catch (error) {
    log('observe: the nodes of the frame at %s could not be taken: %s', run.frame.url(), error instanceof Error ? error.message : String(error))
  }
}

/** Waits for a child frame at most `frameTimeoutMs`. */
async function withinFrameTimeout(run: FrameRun, evaluation: Promise<void>): Promise<void> {
  if (await finishedWithin(evaluation, LIMITS.frameTimeoutMs)) return
  log('observe: the frame at %s did not answer within %d ms and is left out', run.frame.url(), LIMITS.frameTimeoutMs)
  run.report = undefined
}

/**
 * Chrome's own error page, shown in a frame whose document failed to load (an ad or widget host that
 * cannot be reached): it holds nothing of the page, and a script run in it can stay unanswered until
 * the frame's bound, which every observation would then wait out.
 */
const ERROR_PAGE = 'chrome-error://'

function frameRuns(page: Page): FrameRun[] {
  const order: FrameRun[] = []
  const visit = (frame: Frame, parent: FrameRun | undefined) => {
    if (frame.detached || (parent && frame.url().startsWith(ERROR_PAGE))) return
    const run: FrameRun = {
      frame,
      parent,
      children: [],
      depth: parent ? parent.depth + 1 : 0,
      elementHandles: [],
      scrollHandles: [],
      asked: [],
      seen: new Map(),
      sightings: [],
    }
    order.push(run)
    parent?.children.push(run)
    for (const child of frame.childFrames()) visit(child, run)
  }
  visit(page.mainFrame(), undefined)
  return order
}

/** Whether a frame's observation failed on a handle or document that is no longer there. */
function isStale(error: unknown): boolean {
  return isDocumentGone(error) || isHandleReleased(error)
}

/**
 * Whether the observation made with `last` stands, the listeners read meanwhile being the same; when
 * they are not, the frame is observed again under the same key, and the page keeps that call's nodes.
 */
async function guessed(evaluation: Promise<void>, lookup: Promise<ListenedElement[]>, last: NonNullable<ListenerCache['used']>, cache: ListenerCache): Promise<boolean> {
  // A document replaced since (its kept handles gone) is observed once the lookup is back, as a first time is.
  const observed = await evaluation.then(
    () => true,
    (error: unknown) => {
      if (isStale(error)) return false
      throw error
    },
  )
  const listened = await lookup
  return observed && cache.pointerEverywhere === last.pointerEverywhere && sameListened(listened, last.listened)
}

/** Runs the page script in one frame, handing it its children's iframes and their last points. */
async function observeRun(memory: CollectorMemory, run: FrameRun, held: Map<string, Handle>): Promise<void> {
  const attempt = async (fresh: boolean): Promise<Observe> => {
    run.asked = []
    const handles: Handle[] = []
    // Looked up side by side: a page with a dozen ad frames waited for each iframe in turn.
    const owners = await Promise.all(run.children.map((child) => ownerOf(memory, child.frame, fresh)))
    run.children.forEach((child, i) => {
      const owner = owners[i]
      if (!owner) return
      run.asked.push(child)
      handles.push(owner)
    })
    let listeners = memory.listeners.get(run.frame)
    if (!listeners) memory.listeners.set(run.frame, (listeners = { nodes: new Map(), pointerEverywhere: true }))
    const cache = listeners
    const request: Observe = {
      docToken: documentToken(),
      maxElements: LIMITS.maxElements,
      textLimit: LIMITS.textLimit,
      nameLimit: LIMITS.nameLimit,
      nearbyLimit: LIMITS.nearbyLimit,
      valueLimit: LIMITS.valueLimit,
      keptValueLimit: LIMITS.keptValueLimit,
      maxScrollers: LIMITS.maxScrollers,
      frameScroller: run.parent !== undefined,
      childPoints: run.asked.map((child) => memory.framePoints.get(child.frame) ?? []),
      held: [...held.keys()],
      sendKey: randomBytes(6).toString('hex'),
      listenedKinds: [],
      pointerEverywhere: true,
    }
    const evaluateWith = (used: NonNullable<ListenerCache['used']>) => {
      request.listenedKinds = used.listened.map((element) => element.kinds)
      request.pointerEverywhere = used.pointerEverywhere
      // The listened elements go last: the page script takes the first `childPoints.length` as iframes.
      return evaluateFrame(run, request, [...handles, ...used.listened.map((element) => element.handle)])
    }
    // A child frame's listeners get a share of its time: on a busy renderer, a frame observed without
    // them is better than one left out. The lookup goes on, and the next observation has its answer.
    // The frame's time bound covers both.
    const evaluation = (async () => {
      const lookup = listenedElements(run.frame, cache, fresh, run.parent ? LIMITS.frameListenersMs : undefined)
      const last = run.parent || fresh ? undefined : cache.used
      // The top frame is observed with what its last observation was handed while the listeners are read
      // again; only when they changed (seldom: a listener added with no change to the markup, or one on a
      // node that came or went) is it observed once more.
      if (last && (await guessed(evaluateWith(last), lookup, last, cache))) return
      const used = { listened: await lookup, pointerEverywhere: cache.pointerEverywhere }
      await evaluateWith(used)
      cache.used = used
    })()
    await (run.parent ? withinFrameTimeout(run, evaluation) : evaluation)
    return request
  }
  let request: Observe
  try {
    request = await attempt(false).catch((error: unknown) => {
      // A kept iframe handle went stale, or a navigation replaced the document: once more, afresh.
      // Any other failure is not one a second try mends.
      if (isStale(error)) return attempt(true)
      throw error
    })
  } catch (error) {
    if (!run.parent) throw error
    // A child frame that cannot be observed is left out.
    log('observe: the frame at %s is left out: %s', run.frame.url(), error instanceof Error ? error.message : String(error))
    run.report = undefined
    return
  }
  const report = run.report
  if (!report) return
  run.handles = runHandles(run, request.sendKey, held)
  for (const kind of ['elements', 'blockers', 'scrollers'] as const) {
    report[kind].forEach((item, index) => run.sightings.push({ run, kind, index, point: item.at }))
  }
  run.asked.forEach((child, i) => {
    const seen = report.children[i]
    if (!seen) return
    const hits = new Map<string, Point | null>()
    request.childPoints[i]!.forEach((point, j) => hits.set(key(point), seen.points[j] ?? null))
    run.seen.set(child, { child: seen, hits })
  })
}

/** Passes a child's points up through its parent, hit-testing the ones the parent was not handed. */
async function passUp(memory: CollectorMemory, child: FrameRun): Promise<void> {
  const parent = child.parent
  const seen = parent?.seen.get(child)
  if (!parent || !seen || !child.report) return
  const points = child.sightings.map((sighting) => sighting.point)
  memory.framePoints.set(child.frame, points)
  const missing = seen.child.visible ? points.filter((point) => !seen.hits.has(key(point))) : []
  if (missing.length) {
    const owner = await ownerOf(memory, child.frame)
    const translated = owner ? await callInFrame(parent.frame, 'hit', owner, missing) : []
    missing.forEach((point, i) => seen.hits.set(key(point), translated[i] ?? null))
  }
  for (const sighting of child.sightings) {
    const point = seen.hits.get(key(sighting.point))
    if (point) parent.sightings.push({ ...sighting, point })
  }
}

function origin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/**
 * Observes the page in every visible frame and keeps a handle for every offered control and scroll
 * container. The previous snapshot is released once the new one is taken; the handles of nodes
 * offered again pass to the new snapshot.
 */
export async function observe(page: Page, options: ObserveOptions = {}): Promise<Snapshot> {
  const previous = options.previous
  // Taken from the previous snapshot now, so its dispose() cannot release what this one may keep.
  const memory = takeMemory(previous)
  try {
    return await observeFrames(page, options.popups ?? [], memory)
  } catch (error) {
    releaseLater(() => releaseMemory(memory))
    throw error
  } finally {
    // Released after the new snapshot is taken, off its critical path: the renderer would otherwise
    // handle one release per handle before it gets to the observation.
    if (previous) releaseLater(() => previous.dispose())
  }
}

async function observeFrames(page: Page, popups: string[], memory: CollectorMemory): Promise<CollectorSnapshot> {
  // The nodes the last observation first saw are held before this one tells the page which it holds.
  await memory.ready
  const held = memory.handles
  const every = frameRuns(page)
  // A closed page, or its main frame detached soon after: nothing to observe, and no run to read below.
  if (page.isClosed() || every.length === 0) throw new PageGoneError('The page was closed, or the browser disconnected: there is no frame to observe.')
  const runs = await shownFrames(memory, every)
  const taken = () => Promise.all(runs.map((run) => run.handles))
  const obtained = () => runs.flatMap((run) => [...run.elementHandles, ...run.scrollHandles])
  try {
    await Promise.all(runs.map((run) => observeRun(memory, run, held)))
    const deepest = Math.max(...runs.map((run) => run.depth))
    for (let depth = deepest; depth > 0; depth--) {
      await Promise.all(runs.filter((run) => run.depth === depth).map((run) => passUp(memory, run)))
    }
  } catch (error) {
    const handles = [...held.values()]
    held.clear()
    void taken().then(() => release(new Set([...handles, ...obtained()])))
    throw error
  } finally {
    // A frame left out for not being shown is still the page's: what is known of it is kept.
    forgetFrames(memory, new Set(every.map((run) => run.frame)))
  }

  const top = runs[0]!
  const shown = new Set<string>()
  for (const sighting of top.sightings) shown.add(`${runs.indexOf(sighting.run)}:${sighting.kind}:${sighting.index}`)

  const topOrigin = origin(top.report!.url)
  const placed: PlacedFrame<Slot>[] = []
  const offsets = new Map<FrameRun, { x: number; y: number }>([[top, { x: 0, y: 0 }]])
  for (const run of runs) {
    const parentOffset = run.parent ? offsets.get(run.parent) : undefined
    const box = run.parent?.seen.get(run)?.child
    const visible = run === top || (parentOffset !== undefined && run.report !== undefined && box?.visible === true)
    if (!visible || !run.report) continue
    const offset = box && parentOffset ? { x: parentOffset.x + box.x, y: parentOffset.y + box.y } : { x: 0, y: 0 }
    offsets.set(run, offset)
    const index = runs.indexOf(run)
    const seen = (kind: Sighting['kind'], count: number) => Array.from({ length: count }, (_, i) => shown.has(`${index}:${kind}:${i}`))
    const url = run.report.url
    const frame: ObservedFrame = { url, crossOrigin: run !== top && !url.startsWith('about:') && origin(url) !== topOrigin }
    placed.push({
      report: run.report,
      frame,
      offset,
      ...(box ? { box: { x: offset.x, y: offset.y, width: box.width, height: box.height } } : {}),
      seen: {
        elements: seen('elements', run.report.elements.length),
        blockers: seen('blockers', run.report.blockers.length),
        scrollers: seen('scrollers', run.report.scrollers.length),
      },
      elementHandles: run.report.elements.map((_, i) => () => run.elementHandles[i]),
      scrollHandles: run.report.scrollers.map((_, i) => () => run.scrollHandles[i]),
    })
  }

  const merged = mergeFrames(placed, popups)
  if (memory.listeners.get(top.frame)?.keysEverywhere) merged.observation.keysOnPage = true
  const snapshot: CollectorSnapshot = {
    observation: merged.observation,
    handles: new Map(),
    scrollHandles: new Map(),
    ready: Promise.resolve(),
    memory: { handles: new Map(), framePoints: memory.framePoints, owners: memory.owners, listeners: memory.listeners, ready: Promise.resolve() },
    dispose: () => releaseMemory(snapshot.memory),
  }
  // The report is the model's as soon as it is merged; the nodes it first saw come from the page meanwhile.
  const next = snapshot.memory
  snapshot.ready = next.ready = taken().then(() => {
    for (const [id, slot] of merged.handles) {
      const handle = slot()
      if (handle) snapshot.handles.set(id, handle)
    }
    for (const [id, slot] of merged.scrollHandles) {
      const handle = slot()
      if (handle) snapshot.scrollHandles.set(id, handle)
    }
    // What the next observation holds, by node ID; every other handle obtained or taken over is released.
    for (const element of merged.observation.elements) {
      const handle = snapshot.handles.get(element.id)
      if (handle) next.handles.set(element.nodeId, handle)
    }
    const offeredScrollers = new Set(snapshot.scrollHandles.values())
    for (const frame of placed) {
      frame.report.scrollers.forEach((scroller, i) => {
        const handle = frame.scrollHandles[i]!()
        if (handle && offeredScrollers.has(handle)) next.handles.set(scroller.nodeId, handle)
      })
    }
    const kept = new Set(next.handles.values())
    const unused = [...new Set([...held.values(), ...obtained()])].filter((handle) => !kept.has(handle))
    releaseLater(() => release(unused))
  })
  return snapshot
}
