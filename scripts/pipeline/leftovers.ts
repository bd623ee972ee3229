import { setImmediate as tick } from 'node:timers/promises'
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import type { Browser, CDPSession, Page } from 'puppeteer-core'
import { acceptedConnections, sampleTree } from './proc.ts'

// What is left between two levels of bench:pipeline, counted after a forced garbage collection: the
// browser's pages, contexts and targets, the connection's CDP sessions, the listeners on the Browser
// object and on `process`, Node's active handles, the Page objects of finished runs still reachable, Node's heap, and
// Chrome's processes and memory once idle.

/** Browser events the library or Puppeteer listen to. */
const BROWSER_EVENTS = ['disconnected', 'targetcreated', 'targetdestroyed', 'targetchanged', 'targetdiscovered'] as const

let collect: (() => void) | undefined
/** A full garbage collection: `--expose-gc` when node was given it, otherwise switched on here. */
export function forceGc(): { gc: () => void; how: string } {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed) return { gc: exposed, how: '--expose-gc' }
  if (!collect) {
    setFlagsFromString('--expose-gc')
    collect = runInNewContext('gc') as () => void
  }
  return { gc: collect, how: 'v8.setFlagsFromString(--expose-gc)' }
}

export async function settleAndCollect(): Promise<void> {
  const { gc } = forceGc()
  // WeakRef targets stay alive to the end of the current job, and finalizers run on later ticks.
  for (let round = 0; round < 3; round += 1) {
    await tick()
    gc()
  }
}

export interface Snapshot {
  pages: number
  contexts: number
  targets: number
  cdpSessions: number
  browserListeners: Record<string, number>
  /** Listeners on `process`, every event together (exit, signals, warnings…). */
  processListeners: number
  /** process.getActiveResourcesInfo(), by kind, less the site's accepted connections (`siteConnections`). */
  nodeHandles: Record<string, number>
  /** Connections from Chrome that the site's server holds open (keep-alive): Chrome's, not the library's. */
  siteConnections: number
  /** Page objects of runs that have ended, still reachable after the collection. */
  livePages: number
  heapUsedMb: number
  nodeRssMb: number
  chromeProcesses: number
  chromeRenderers: number
  chromePssMb: number
  chromeRssMb: number
}

/** Keeps a WeakRef to every page opened, to count those still reachable once their run is over. */
export class PageTracker {
  #refs: WeakRef<Page>[] = []
  track = (page: Page) => {
    this.#refs.push(new WeakRef(page))
  }
  get alive(): number {
    this.#refs = this.#refs.filter((ref) => ref.deref() !== undefined)
    return this.#refs.length
  }
}

export async function snapshot(browser: Browser, sessions: ReadonlyMap<string, CDPSession>, tracker: PageTracker, sitePort: number): Promise<Snapshot> {
  // Let closing targets finish detaching before they are counted.
  await new Promise((resolve) => setTimeout(resolve, 300))
  const pages = (await browser.pages()).length
  await settleAndCollect()
  const nodeHandles: Record<string, number> = {}
  for (const kind of process.getActiveResourcesInfo()) nodeHandles[kind] = (nodeHandles[kind] ?? 0) + 1
  const siteConnections = acceptedConnections(sitePort)
  if (nodeHandles.TCPSocketWrap !== undefined) nodeHandles.TCPSocketWrap -= Math.min(siteConnections, nodeHandles.TCPSocketWrap)
  const memory = process.memoryUsage()
  const chrome = sampleTree(browser.process()!.pid!)
  return {
    pages,
    contexts: browser.browserContexts().length,
    targets: browser.targets().length,
    cdpSessions: sessions.size,
    browserListeners: Object.fromEntries(BROWSER_EVENTS.map((event) => [event, browser.listenerCount(event)])),
    processListeners: process.eventNames().reduce((sum, event) => sum + process.listenerCount(event), 0),
    nodeHandles,
    siteConnections,
    livePages: tracker.alive,
    heapUsedMb: memory.heapUsed / 2 ** 20,
    nodeRssMb: memory.rss / 2 ** 20,
    chromeProcesses: chrome.processes,
    chromeRenderers: chrome.renderers,
    chromePssMb: chrome.pssMb,
    chromeRssMb: chrome.rssMb,
  }
}

const total = (counts: Record<string, number>) => Object.values(counts).reduce((sum, value) => sum + value, 0)

/** The counters that should not grow with pages, each as one number. */
export function counters(shot: Snapshot): Record<string, number> {
  return {
    'open pages': shot.pages,
    'browser contexts': shot.contexts,
    targets: shot.targets,
    'CDP sessions': shot.cdpSessions,
    'Browser listeners': total(shot.browserListeners),
    'process listeners': shot.processListeners,
    'Node active handles (less the site\'s)': total(shot.nodeHandles),
    'Page objects alive': shot.livePages,
  }
}

/** What grew from `before` to `after`, as "name before → after"; listeners and handles by kind. */
export function growth(before: Snapshot, after: Snapshot): string[] {
  const grown: string[] = []
  const a = counters(before)
  const b = counters(after)
  for (const name of Object.keys(b)) if (b[name]! > a[name]!) grown.push(`${name} ${a[name]} → ${b[name]}`)
  for (const [group, x, y] of [
    ['Browser', before.browserListeners, after.browserListeners],
    ['Node', before.nodeHandles, after.nodeHandles],
  ] as const) {
    for (const kind of Object.keys(y)) if ((y[kind] ?? 0) > (x[kind] ?? 0)) grown.push(`${group} ${kind}: ${x[kind] ?? 0} → ${y[kind]}`)
  }
  return grown
}
