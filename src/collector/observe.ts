import type { ElementHandle, Frame, JSHandle, Page } from 'puppeteer-core'
import type { ObservedFrame, Snapshot } from './observation.ts'
import { collectorScript, type FrameReport, type ObserveRequest, type Point, type Rect } from './page-script.ts'
import { mergeFrames, type PlacedFrame } from './merge.ts'
import { LIMITS } from './limits.ts'

// The Node side of the collector. Frames are observed deepest first, one evaluate each: a frame
// passes the points of its controls up to its parent, which hit-tests them against the iframe, so a
// control in a frame is only offered where the top page really shows it.

export interface ObserveOptions {
  /** The snapshot this one replaces; its handles are released. */
  previous?: Snapshot
  /** URLs of tabs the page opened since the previous observation. */
  popups?: string[]
}

type Handle = ElementHandle<Element>

/** A point a frame reports upward, and which element, blocker or scroller of which frame it stands for. */
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
  /** The iframe element in the parent document. */
  owner: Promise<Handle | null> | undefined
  report?: FrameReport
  elementHandles: Handle[]
  scrollHandles: Handle[]
  /** This frame's own points and the child points it could see, in its viewport. */
  sightings: Sighting[]
  /** The iframe's content box and visibility, as the parent reported it. */
  box?: Rect & { visible: boolean }
}

// Document tokens are handed out per page, so node IDs (`d3:17`) never repeat across its documents.
const nextDocument = new WeakMap<Page, number>()

function documentToken(page: Page): string {
  const next = (nextDocument.get(page) ?? 0) + 1
  nextDocument.set(page, next)
  return `d${next}`
}

function release(handles: Iterable<JSHandle>): Promise<unknown> {
  return Promise.all(Array.from(handles, (handle) => handle.dispose().catch(() => {})))
}

function isContextLoss(error: unknown): boolean {
  return error instanceof Error && /context was destroyed|Cannot find context|Execution context is not available|detached/i.test(error.message)
}

async function evaluateFrame(run: FrameRun, request: ObserveRequest, owners: Handle[]): Promise<void> {
  const array = await run.frame.evaluateHandle(collectorScript, null, request, ...owners)
  try {
    const properties = await array.getProperties()
    const json = await properties.get('0')?.jsonValue()
    if (typeof json !== 'string') throw new Error(`The collector script returned no report in frame ${run.frame.url()}`)
    const report = JSON.parse(json) as FrameReport
    const nodes: Handle[] = []
    for (let i = 1; i < properties.size; i++) {
      const handle = properties.get(String(i))?.asElement()
      if (!handle) throw new Error(`The collector script returned a non-element at ${i} in frame ${run.frame.url()}`)
      nodes.push(handle as Handle)
    }
    run.report = report
    run.elementHandles = nodes.slice(0, report.elements.length)
    run.scrollHandles = nodes.slice(report.elements.length)
  } finally {
    void array.dispose().catch(() => {})
  }
}

/** A child frame that does not answer in time is left out; its late answer is released. */
async function evaluateChild(run: FrameRun, request: ObserveRequest, owners: Handle[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const evaluation = evaluateFrame(run, request, owners)
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), LIMITS.frameTimeoutMs)
  })
  try {
    const outcome = await Promise.race([evaluation.then(() => 'done' as const), timeout])
    if (outcome === 'timeout') {
      void evaluation.then(() => release([...run.elementHandles, ...run.scrollHandles]), () => {})
      run.report = undefined
      run.elementHandles = []
      run.scrollHandles = []
    }
  } catch {
    run.report = undefined
  } finally {
    clearTimeout(timer)
  }
}

function frameRuns(page: Page): FrameRun[] {
  const runs = new Map<Frame, FrameRun>()
  const order: FrameRun[] = []
  const visit = (frame: Frame, parent: FrameRun | undefined) => {
    if (frame.detached) return
    const run: FrameRun = {
      frame,
      parent,
      children: [],
      depth: parent ? parent.depth + 1 : 0,
      owner: parent ? frame.frameElement().then((owner) => owner as Handle | null, () => null) : undefined,
      elementHandles: [],
      scrollHandles: [],
      sightings: [],
    }
    runs.set(frame, run)
    order.push(run)
    parent?.children.push(run)
    for (const child of frame.childFrames()) visit(child, run)
  }
  visit(page.mainFrame(), undefined)
  return order
}

async function observeRun(page: Page, run: FrameRun): Promise<void> {
  const children: FrameRun[] = []
  const owners: Handle[] = []
  for (const child of run.children) {
    const owner = await child.owner
    if (child.report && owner) {
      children.push(child)
      owners.push(owner)
    }
  }
  const request: ObserveRequest = {
    mode: 'observe',
    docToken: documentToken(page),
    maxElements: LIMITS.maxElements,
    textLimit: LIMITS.textLimit,
    nameLimit: LIMITS.nameLimit,
    nearbyLimit: LIMITS.nearbyLimit,
    frameScroller: run.parent !== undefined,
    childPoints: children.map((child) => child.sightings.map((sighting) => sighting.point)),
  }
  if (run.parent) {
    await evaluateChild(run, request, owners)
  } else {
    try {
      await evaluateFrame(run, request, owners)
    } catch (error) {
      // A navigation can replace the document between two calls; the new one is observed once.
      if (!isContextLoss(error)) throw error
      await evaluateFrame(run, { ...request, docToken: documentToken(page) }, owners)
    }
  }
  const report = run.report
  if (!report) return
  for (const kind of ['elements', 'blockers', 'scrollers'] as const) {
    report[kind].forEach((item, index) => run.sightings.push({ run, kind, index, point: item.at }))
  }
  children.forEach((child, i) => {
    const seen = report.children[i]
    if (!seen) return
    child.box = { x: seen.x, y: seen.y, width: seen.width, height: seen.height, visible: seen.visible }
    child.sightings.forEach((sighting, j) => {
      const point = seen.points[j]
      if (point) run.sightings.push({ ...sighting, point })
    })
  })
}

function origin(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return url
  }
}

/**
 * Observes the page in every visible frame: one evaluate per frame, handles kept for every offered
 * control and scroll container, and the previous snapshot's handles released.
 */
export async function observe(page: Page, options: ObserveOptions = {}): Promise<Snapshot> {
  const releasing = options.previous?.dispose()
  const runs = frameRuns(page)
  const owners = runs.map((run) => run.owner)
  try {
    const deepest = Math.max(...runs.map((run) => run.depth))
    for (let depth = deepest; depth >= 0; depth--) {
      await Promise.all(runs.filter((run) => run.depth === depth).map((run) => observeRun(page, run)))
    }
  } catch (error) {
    await release(runs.flatMap((run) => [...run.elementHandles, ...run.scrollHandles]))
    throw error
  } finally {
    const resolved = await Promise.all(owners)
    void release(resolved.filter((owner): owner is Handle => owner !== null && owner !== undefined))
  }

  const top = runs[0]!
  const visible = new Set<string>()
  for (const sighting of top.sightings) visible.add(`${runs.indexOf(sighting.run)}:${sighting.kind}:${sighting.index}`)

  const topOrigin = origin(top.report!.url)
  const placed: PlacedFrame<Handle>[] = []
  const dropped: Handle[] = []
  const offsets = new Map<FrameRun, { x: number; y: number }>([[top, { x: 0, y: 0 }]])
  for (const run of runs) {
    const parentOffset = run.parent ? offsets.get(run.parent) : undefined
    const shown = run === top || (parentOffset !== undefined && run.report !== undefined && run.box?.visible === true)
    if (!shown || !run.report) {
      dropped.push(...run.elementHandles, ...run.scrollHandles)
      continue
    }
    const offset = run === top ? { x: 0, y: 0 } : { x: parentOffset!.x + run.box!.x, y: parentOffset!.y + run.box!.y }
    offsets.set(run, offset)
    const index = runs.indexOf(run)
    const seen = (kind: Sighting['kind'], count: number) => Array.from({ length: count }, (_, i) => visible.has(`${index}:${kind}:${i}`))
    const url = run.report.url
    const frame: ObservedFrame = {
      url,
      crossOrigin: run !== top && !url.startsWith('about:') && origin(url) !== topOrigin,
    }
    placed.push({
      report: run.report,
      frame,
      offset,
      ...(run === top ? {} : { box: { x: offset.x, y: offset.y, width: run.box!.width, height: run.box!.height } }),
      seen: {
        elements: seen('elements', run.report.elements.length),
        blockers: seen('blockers', run.report.blockers.length),
        scrollers: seen('scrollers', run.report.scrollers.length),
      },
      elementHandles: run.elementHandles,
      scrollHandles: run.scrollHandles,
    })
  }

  const merged = mergeFrames(placed, options.popups ?? [])
  await Promise.all([release([...dropped, ...merged.unused]), releasing])

  let disposed = false
  return {
    observation: merged.observation,
    handles: merged.handles,
    scrollHandles: merged.scrollHandles,
    async dispose() {
      if (disposed) return
      disposed = true
      await release([...merged.handles.values(), ...merged.scrollHandles.values()])
    },
  }
}
