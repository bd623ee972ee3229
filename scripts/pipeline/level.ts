import type { Browser, CDPSession } from 'puppeteer-core'
import type { BenchPage } from '../cache/tasks.ts'
import { median, p90 } from '../common/stats.ts'
import { growth, snapshot, type PageTracker, type Snapshot } from './leftovers.ts'
import { machineCpu, sampleTree } from './proc.ts'
import { runPage, type Isolation, type PageRun } from './run-page.ts'

// One level of bench:pipeline: `pages` pages through `concurrency` workers taking the next page from a
// shared list, as a crawler's pool does, with memory and CPU sampled every SAMPLE_MS, and the
// leftovers counted before and after (leftovers.ts).

const SAMPLE_MS = 250

export interface LevelOptions {
  browser: Browser
  origin: string
  pages: readonly BenchPage[]
  concurrency: number
  run: number
  isolation: Isolation
  sessions: ReadonlyMap<string, CDPSession>
  tracker: PageTracker
  /** The site's port, to tell its accepted connections from the library's handles. */
  sitePort: number
  onPage?(run: PageRun): void
}

export interface Level {
  concurrency: number
  run: number
  pages: number
  failed: number
  problems: string[]
  wallMs: number
  pagesPerMinute: number
  medianPageMs: number | undefined
  p90PageMs: number | undefined
  /** Medians of the parts of a page's time, over the pages that succeeded. */
  phases: { openMs?: number; gotoMs?: number; goalMs?: number; extractMs?: number; closeMs?: number }
  decisionsPerPage: number
  /** CPU time per page, in ms: what a page costs whatever else the machine runs. */
  cpuPerPageMs: { node: number; chrome: number }
  /** CPU over the level, in cores (1 = one core busy all along). */
  cpu: { node: number; chrome: number; chromeRenderers: number; chromeBrowser: number; chromeOther: number; machine: number; others: number }
  /** Peaks and medians of the samples taken during the level, in MB. */
  memory: {
    nodeRssPeakMb: number
    nodeHeapPeakMb: number
    chromePssPeakMb: number
    chromePssMedianMb: number
    chromeRssPeakMb: number
    renderersPeak: number
    /** (Chrome's median PSS during the level − its idle PSS before) / concurrency. */
    chromePerOpenPageMb: number
  }
  /** Node heap and RSS after a forced GC, after the level minus before it, per page, in KB. */
  heapGrowthPerPageKb: number
  rssGrowthPerPageKb: number
  before: Snapshot
  after: Snapshot
  /** Counters that grew from before to after the level. */
  grown: string[]
  /** What the agent calls left on pages before they closed, summed over the level's pages. */
  pageLeftovers: Record<string, number>
}

interface Sample {
  nodeRss: number
  nodeHeap: number
  chromePss: number
  chromeRss: number
  renderers: number
}

export async function runLevel(options: LevelOptions): Promise<Level> {
  const { browser, concurrency, pages } = options
  const root = browser.process()!.pid!
  const before = await snapshot(browser, options.sessions, options.tracker, options.sitePort)

  const samples: Sample[] = []
  const sample = () => {
    const memory = process.memoryUsage()
    const tree = sampleTree(root)
    samples.push({ nodeRss: memory.rss / 2 ** 20, nodeHeap: memory.heapUsed / 2 ** 20, chromePss: tree.pssMb, chromeRss: tree.rssMb, renderers: tree.renderers })
  }
  const cpuNode = process.cpuUsage()
  const cpuChrome = sampleTree(root)
  const cpuMachine = machineCpu()
  const started = performance.now()
  const timer = setInterval(sample, SAMPLE_MS)

  const runs: PageRun[] = []
  let next = 0
  const worker = async () => {
    while (next < pages.length) {
      const page = pages[next]!
      next += 1
      const run = await runPage({ browser, origin: options.origin, page, sessions: options.sessions, isolation: options.isolation, track: options.tracker.track })
      runs.push(run)
      options.onPage?.(run)
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, pages.length) }, worker))
  } finally {
    clearInterval(timer)
  }
  sample()
  const wallMs = performance.now() - started
  const nodeCpu = process.cpuUsage(cpuNode)
  const chromeAfter = sampleTree(root)
  const machineAfter = machineCpu()
  const after = await snapshot(browser, options.sessions, options.tracker, options.sitePort)

  const cores = (ms: number) => ms / wallMs
  const chromeMs = chromeAfter.cpuMs - cpuChrome.cpuMs
  const chromeRenderersMs = chromeAfter.rendererCpuMs - cpuChrome.rendererCpuMs
  const chromeBrowserMs = chromeAfter.rootCpuMs - cpuChrome.rootCpuMs
  const nodeMs = (nodeCpu.user + nodeCpu.system) / 1000
  // The machine's busy time counts every core together, sampled over a slightly longer span.
  const machineMs = machineAfter.busyMs - cpuMachine.busyMs
  const pageLeftovers: Record<string, number> = {}
  for (const run of runs) for (const [kind, count] of Object.entries(run.leftovers)) pageLeftovers[kind] = (pageLeftovers[kind] ?? 0) + count
  const ok = runs.filter((run) => run.ok)
  const peak = (pick: (sample: Sample) => number) => Math.max(...samples.map(pick))
  const chromePssMedian = median(samples.map((s) => s.chromePss)) ?? 0

  return {
    concurrency,
    run: options.run,
    pages: runs.length,
    failed: runs.length - ok.length,
    problems: runs.filter((run) => !run.ok).map((run) => `${run.path}: ${run.problem}`),
    wallMs,
    pagesPerMinute: (runs.length / wallMs) * 60_000,
    medianPageMs: median(runs.map((run) => run.ms)),
    p90PageMs: p90(runs.map((run) => run.ms)),
    phases: {
      openMs: median(ok.map((run) => run.openMs)),
      gotoMs: median(ok.map((run) => run.gotoMs)),
      goalMs: median(ok.map((run) => run.goalMs)),
      extractMs: median(ok.map((run) => run.extractMs)),
      closeMs: median(ok.map((run) => run.closeMs)),
    },
    decisionsPerPage: runs.reduce((sum, run) => sum + run.decisions, 0) / runs.length,
    cpuPerPageMs: { node: nodeMs / runs.length, chrome: chromeMs / runs.length },
    cpu: {
      node: cores(nodeMs),
      chrome: cores(chromeMs),
      chromeRenderers: cores(chromeRenderersMs),
      chromeBrowser: cores(chromeBrowserMs),
      chromeOther: cores(chromeMs - chromeRenderersMs - chromeBrowserMs),
      machine: cores(machineMs),
      others: Math.max(0, cores(machineMs - nodeMs - chromeMs)),
    },
    memory: {
      nodeRssPeakMb: peak((s) => s.nodeRss),
      nodeHeapPeakMb: peak((s) => s.nodeHeap),
      chromePssPeakMb: peak((s) => s.chromePss),
      chromePssMedianMb: chromePssMedian,
      chromeRssPeakMb: peak((s) => s.chromeRss),
      renderersPeak: peak((s) => s.renderers),
      chromePerOpenPageMb: (chromePssMedian - before.chromePssMb) / concurrency,
    },
    heapGrowthPerPageKb: ((after.heapUsedMb - before.heapUsedMb) * 1024) / runs.length,
    rssGrowthPerPageKb: ((after.nodeRssMb - before.nodeRssMb) * 1024) / runs.length,
    before,
    after,
    grown: growth(before, after),
    pageLeftovers,
  }
}
