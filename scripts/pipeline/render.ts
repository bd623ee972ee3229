import { counters, type Snapshot } from './leftovers.ts'
import type { Level } from './level.ts'

// The tables and closing lines of bench:pipeline.

const ms = (value: number | undefined) => (value === undefined ? '?' : `${Math.round(value)} ms`)
const mb = (value: number) => `${Math.round(value)} MB`
const fixed = (value: number, digits = 2) => value.toFixed(digits)
const kb = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)} KB`

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n')
}

export function renderThroughput(levels: readonly Level[]): string {
  return table(
    ['Concurrency', 'Run', 'Pages', 'Failed', 'Pages / min', 'Median page', 'p90 page', 'Open / goto / goal / extract / close (median ms)', 'Decisions / page', 'CPU ms / page: Node + Chrome', 'CPU cores: Node', 'Chrome (renderers / browser / other)', 'Other processes', 'Machine busy'],
    levels.map((level) => [
      String(level.concurrency),
      String(level.run),
      String(level.pages),
      String(level.failed),
      fixed(level.pagesPerMinute, 1),
      ms(level.medianPageMs),
      ms(level.p90PageMs),
      [level.phases.openMs, level.phases.gotoMs, level.phases.goalMs, level.phases.extractMs, level.phases.closeMs].map((value) => (value === undefined ? '?' : String(Math.round(value)))).join(' / '),
      fixed(level.decisionsPerPage),
      `${Math.round(level.cpuPerPageMs.node)} + ${Math.round(level.cpuPerPageMs.chrome)}`,
      fixed(level.cpu.node),
      `${fixed(level.cpu.chrome)} (${fixed(level.cpu.chromeRenderers)} / ${fixed(level.cpu.chromeBrowser)} / ${fixed(level.cpu.chromeOther)})`,
      fixed(level.cpu.others),
      fixed(level.cpu.machine),
    ]),
  )
}

export function renderMemory(levels: readonly Level[]): string {
  return table(
    ['Concurrency', 'Run', 'Node heap / page (after GC)', 'Node RSS / page', 'Node heap, RSS peak', 'Chrome PSS idle → median, peak', 'Chrome PSS / open page', 'Chrome RSS peak', 'Renderers peak'],
    levels.map((level) => [
      String(level.concurrency),
      String(level.run),
      kb(level.heapGrowthPerPageKb),
      kb(level.rssGrowthPerPageKb),
      `${mb(level.memory.nodeHeapPeakMb)}, ${mb(level.memory.nodeRssPeakMb)}`,
      `${mb(level.before.chromePssMb)} → ${mb(level.memory.chromePssMedianMb)}, ${mb(level.memory.chromePssPeakMb)}`,
      mb(level.memory.chromePerOpenPageMb),
      mb(level.memory.chromeRssPeakMb),
      String(level.memory.renderersPeak),
    ]),
  )
}

function change(before: number, after: number): string {
  return before === after ? String(after) : `${before} → ${after}`
}

export function renderLeftovers(levels: readonly Level[]): string {
  const names = Object.keys(counters(levels[0]!.before))
  return table(
    ['Concurrency', 'Run', ...names, 'Left on pages', 'Node heap after GC', "Site's connections from Chrome"],
    levels.map((level) => {
      const a = counters(level.before)
      const b = counters(level.after)
      const onPages = Object.entries(level.pageLeftovers).map(([kind, count]) => `${kind}: ${count}`)
      return [
        String(level.concurrency),
        String(level.run),
        ...names.map((name) => change(a[name]!, b[name]!)),
        onPages.length > 0 ? onPages.join(', ') : 'none',
        `${mb(level.before.heapUsedMb)} → ${mb(level.after.heapUsedMb)}`,
        change(level.before.siteConnections, level.after.siteConnections),
      ]
    }),
  )
}

/** Every leftover the levels found: counters that grew, and what pages kept. */
export function leftovers(levels: readonly Level[]): string[] {
  return levels.flatMap((level) => [
    ...level.grown.map((grown) => `concurrency ${level.concurrency} run ${level.run}: ${grown}`),
    ...Object.entries(level.pageLeftovers).map(([kind, count]) => `concurrency ${level.concurrency} run ${level.run}: ${kind} on ${count} page(s)`),
  ])
}

/**
 * Node's heap after GC from the end of the first level's run to the end of the last, per 100 pages:
 * the first run still loads and compiles code, so the trend starts after it (or after the warm-up
 * when there is one run in all).
 */
export function heapTrend(levels: readonly Level[], warm: Snapshot): string {
  const last = levels.at(-1)
  if (!last) return ''
  const [start, counted, label] = levels.length > 1 ? [levels[0]!.after, levels.slice(1), 'the first run'] : [warm, levels, 'the warm-up']
  const pages = counted.reduce((sum, level) => sum + level.pages, 0)
  const perHundred = ((last.after.heapUsedMb - start.heapUsedMb) * 1024 * 100) / pages
  return `Node heap after GC: ${start.heapUsedMb.toFixed(1)} MB after ${label}, ${last.after.heapUsedMb.toFixed(1)} MB after ${pages} more pages (${kb(perHundred)} per 100 pages).`
}

interface Machine {
  cores: number
  totalGiB: number
  availableGiB: number
}

/**
 * What bounds throughput here, from the figures: the best level, CPU per page at each level (what the
 * machine could serve with both cores to itself), the CPU split where it peaked, and memory.
 */
export function renderLimit(levels: readonly Level[], machine: Machine): string {
  const byConcurrency = new Map<number, Level[]>()
  for (const level of levels) byConcurrency.set(level.concurrency, [...(byConcurrency.get(level.concurrency) ?? []), level])
  const mean = (list: Level[], pick: (level: Level) => number) => list.reduce((sum, level) => sum + pick(level), 0) / list.length
  const summary = [...byConcurrency].map(([concurrency, list]) => ({
    concurrency,
    pagesPerMinute: mean(list, (level) => level.pagesPerMinute),
    machine: mean(list, (level) => level.cpu.machine),
    node: mean(list, (level) => level.cpu.node),
    chrome: mean(list, (level) => level.cpu.chrome),
    renderers: mean(list, (level) => level.cpu.chromeRenderers),
    browser: mean(list, (level) => level.cpu.chromeBrowser),
    others: mean(list, (level) => level.cpu.others),
    nodeMsPerPage: mean(list, (level) => level.cpuPerPageMs.node),
    chromeMsPerPage: mean(list, (level) => level.cpuPerPageMs.chrome),
    perPage: mean(list, (level) => level.memory.chromePerOpenPageMb),
    nodeRss: Math.max(...list.map((level) => level.memory.nodeRssPeakMb)),
    chromePeak: Math.max(...list.map((level) => level.memory.chromePssPeakMb)),
  }))
  const best = summary.reduce((a, b) => (b.pagesPerMinute > a.pagesPerMinute ? b : a))
  const base = summary.find((entry) => entry.concurrency === 1) ?? summary[0]!
  const top = summary.reduce((a, b) => (b.concurrency > a.concurrency ? b : a))
  const cpuMs = (entry: (typeof summary)[number]) => entry.nodeMsPerPage + entry.chromeMsPerPage
  const ceiling = (entry: (typeof summary)[number]) => Math.round((machine.cores * 60_000) / cpuMs(entry))
  const busy = best.machine / machine.cores
  const room = top.perPage > 0 ? Math.floor((machine.availableGiB * 1024) / top.perPage) : undefined
  const bound =
    busy >= 0.9
      ? `CPU: the cores were ${Math.round(busy * 100)}% busy where throughput peaked${best.others >= 0.1 ? `, ${fixed(best.others)} cores of it other processes'` : ''}; memory was far from it`
      : `neither CPU (${Math.round(busy * 100)}% busy where throughput peaked) nor memory: the time a page waits`
  return [
    `Throughput (mean of runs): ${summary.map((entry) => `${fixed(entry.pagesPerMinute, 1)} pages/min at ${entry.concurrency}`).join(', ')}; best at concurrency ${best.concurrency}, ${fixed(best.pagesPerMinute / base.pagesPerMinute, 2)}× concurrency ${base.concurrency}.`,
    `CPU per page, Node + Chrome: ${summary.map((entry) => `${Math.round(entry.nodeMsPerPage)} + ${Math.round(entry.chromeMsPerPage)} = ${Math.round(cpuMs(entry))} ms at ${entry.concurrency}`).join(', ')}; the ${machine.cores} cores with nothing else running would serve at most ${summary.map((entry) => `${ceiling(entry)}`).join(', ')} pages/min at those costs.`,
    `CPU at concurrency ${best.concurrency}: the machine's ${machine.cores} cores ${Math.round(busy * 100)}% busy: Chrome ${fixed(best.chrome)} cores (renderers ${fixed(best.renderers)}, browser process ${fixed(best.browser)}), Node ${fixed(best.node)} (library, Puppeteer, mock models and the site's server), other processes ${fixed(best.others)}.`,
    `Memory at concurrency ${top.concurrency}: Chrome PSS ${Math.round(top.perPage)} MB per open page (peak ${mb(top.chromePeak)} in all), Node RSS peak ${mb(top.nodeRss)}; ${machine.availableGiB.toFixed(1)} of ${machine.totalGiB.toFixed(1)} GiB available at the end${room === undefined ? '' : `, room for about ${room} open pages by Chrome's share`}.`,
    `Bound by: ${bound}.`,
  ].join('\n')
}
