// npm run bench:pipeline -- [--pages=96] [--concurrency=1,4,8] [--runs=2] [--isolation=context|page] [--out=pages.jsonl]
// Many pages at once on one machine (issue 19), as a scraping pipeline runs the library: one launched
// Chrome (test/helpers/chrome.ts), and at each concurrency `--pages` pages of the cache-site
// (test/fixtures/cache-site: category, product and search pages in turn) through that many workers
// taking the next page from a shared list. Each page is the caller's whole job: a new browser
// context and a page in it, goto, agent(page), the template's goal (scripts/cache/tasks.ts: sort by
// price; choose size M and add to cart; search for a word, with the caller's checklist, so no request
// writes one), page.extract with the template's complete rules (no model), the data checked against
// the catalog, and the context closed. The decision model is scripted and answers at once (as does the
// text model that types the search goal's word), and the cache is off, so every step of every goal is
// a decision request and every figure is the library's, Puppeteer's and Chrome's.
//
// A browser context per page, not a page in the default context: a crawler's pages must not share
// cookies, storage or HTTP cache (a cart, a consent answer, a login), and closing the context is one
// call that takes everything of the page with it; it also gives each page its own renderer process,
// which is what a pool of contexts (Crawlee's incognito pages, a browserless session) costs.
// `--isolation=page` runs pages in the default context instead, to compare, each with its focus
// emulated: a hidden background tab holds every click for 5 s (scripts/pipeline/run-page.ts).
//
// Each level runs `--runs` times in a row (default 2) after a warm-up of three pages, so that what
// grows with pages shows as growth from one run to the next, not as a first run's lazy loading.
//
// Printed per level and run:
// - pages per minute (pages over the level's wall time), median and p90 time of a page (opening the
//   context to closing it), failures (a goal not verified by the page, or wrong data);
// - CPU, in cores busy over the level: Node (this process: library, Puppeteer, the mock models and the
//   site's HTTP server), Chrome's process tree (renderers, the browser process, others: GPU and utility
//   processes), other processes of the machine (from /proc/stat), and the machine in all;
// - memory: Node's heap and RSS after a forced GC (--expose-gc), after the level minus before, per page;
//   peaks sampled every 250 ms; Chrome's PSS summed over its process tree (/proc/<pid>/smaps_rollup:
//   shared pages split among their users, so the sum does not count Chrome's code once per renderer
//   as RSS does), idle before the level, median and peak during it, and per open page;
// - leftovers, before → after each level: open pages, browser contexts, targets, CDP sessions of the
//   connection, listeners on the Browser object and on `process`, Node's active handles (less the
//   connections Chrome keeps open to the site's server, which are printed apart), the Page objects of
//   finished runs still reachable after a GC (WeakRefs), and, checked on each page before its context
//   closed, listeners the agent calls added to the page and did not remove, CDP sessions of the page
//   still attached, and the page lock still held.
// Then "Leftovers: none" or the list, and the limit reached and what binds it, from the figures.
// The exit code is 0 whenever the bench ran, failures or leftovers included: they are in the output.
import { readFileSync } from 'node:fs'
import { availableParallelism, totalmem } from 'node:os'
import type { CDPSession } from 'puppeteer-core'
import { launchChrome } from '../test/helpers/chrome.ts'
import { serveCacheSite } from '../test/helpers/cache-site.ts'
import { benchPages } from './cache/tasks.ts'
import { FlagError, integerFlag, listFlag, parseFlags, stringFlag } from './common/flags.ts'
import { appendJsonLine, startJsonl } from './common/jsonl.ts'
import { firstLine } from './common/message.ts'
import { progress, seconds } from './common/progress.ts'
import { forceGc, PageTracker, snapshot } from './pipeline/leftovers.ts'
import { runLevel, type Level } from './pipeline/level.ts'
import { heapTrend, leftovers, renderLeftovers, renderLimit, renderMemory, renderThroughput } from './pipeline/render.ts'
import { runScript } from './common/run-script.ts'

const USAGE = `Usage: npm run bench:pipeline -- [flags]
  --pages=<n>              pages at each level, the three templates in turn (default 96)
  --concurrency=<n,n,…>    the levels: pages open at once (default 1,4,8)
  --runs=<n>               times each level runs in a row (default 2)
  --isolation=<kind>       context: a browser context per page (default); page: a page in the default context
  --out=<file.jsonl>       also write one record per page (its times, steps and leftovers)`

const WARM_UP_PAGES = 3

function availableGiB(): number {
  const kb = Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? 0)
  return kb / 2 ** 20
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['pages', 'concurrency', 'runs', 'isolation', 'out'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const pages = benchPages(integerFlag(flags, 'pages', 96))
  const runs = integerFlag(flags, 'runs', 2)
  const levels = listFlag(flags, 'concurrency', ['1', '4', '8']).map((text) => {
    const value = Number(text)
    if (!Number.isInteger(value) || value < 1) throw new FlagError(`--concurrency must list integers of at least 1, got ${JSON.stringify(text)}.`)
    return value
  })
  const isolation = stringFlag(flags, 'isolation') ?? 'context'
  if (isolation !== 'context' && isolation !== 'page') throw new FlagError(`--isolation must be context or page, got ${JSON.stringify(isolation)}.`)
  const out = stringFlag(flags, 'out')
  const gc = forceGc()
  if (out) startJsonl(out)

  const site = await serveCacheSite()
  const browser = await launchChrome()
  const done: Level[] = []
  let warm
  try {
    // The connection's sessions, read from Puppeteer's internal map: a session kept by the bench to reach it is one of them all along.
    const probe: CDPSession = await browser.target().createCDPSession()
    const sessions = (probe.connection() as unknown as { _sessions: Map<string, CDPSession> })._sessions
    if (!(sessions instanceof Map)) throw new Error("Puppeteer's connection has no session map to count (Connection._sessions)")
    const tracker = new PageTracker()
    const sitePort = Number(new URL(site.origin).port)
    progress('bench:pipeline', `${pages.length} page(s) at concurrency ${levels.join(', ')}, ${runs} run(s) each, a ${isolation} per page, on ${site.origin}; GC by ${gc.how}`)

    const warmUp = await runLevel({ browser, origin: site.origin, pages: pages.slice(0, WARM_UP_PAGES), concurrency: 1, run: 0, isolation, sessions, tracker, sitePort })
    if (warmUp.failed > 0) progress('bench:pipeline', `warm-up: ${warmUp.problems.map(firstLine).join('; ')}`)
    warm = await snapshot(browser, sessions, tracker, sitePort)

    for (const concurrency of levels) {
      for (let run = 1; run <= runs; run += 1) {
        const level = await runLevel({
          browser,
          origin: site.origin,
          pages,
          concurrency,
          run,
          isolation,
          sessions,
          tracker,
          sitePort,
          onPage(page) {
            if (out) appendJsonLine(out, { concurrency, run, ...page })
            if (!page.ok) progress('bench:pipeline', `concurrency ${concurrency} run ${run} ${page.path}: FAILED ${firstLine(page.problem ?? '')}`)
          },
        })
        done.push(level)
        progress(
          'bench:pipeline',
          `concurrency ${concurrency} run ${run}: ${level.pages - level.failed}/${level.pages} ok in ${seconds(level.wallMs)}, ${level.pagesPerMinute.toFixed(1)} pages/min; leftovers: ${level.grown.length + Object.keys(level.pageLeftovers).length === 0 ? 'none' : [...level.grown, ...Object.keys(level.pageLeftovers)].join(', ')}`,
        )
      }
    }
    await probe.detach().catch(() => {})
  } finally {
    await browser.close().catch(() => {})
    await site.close()
  }

  const found = leftovers(done)
  const machine = { cores: availableParallelism(), totalGiB: totalmem() / 2 ** 30, availableGiB: availableGiB() }
  const failed = done.reduce((sum, level) => sum + level.failed, 0)
  process.stdout.write(
    [
      `Pipeline: ${pages.length} pages per run, a ${isolation} per page, ${machine.cores} cores, ${machine.totalGiB.toFixed(1)} GiB.`,
      '',
      renderThroughput(done),
      '',
      renderMemory(done),
      '',
      renderLeftovers(done),
      '',
      `Failures: ${failed === 0 ? 'none' : `${failed}: ${done.flatMap((level) => level.problems).slice(0, 5).join('; ')}`}`,
      `Leftovers: ${found.length === 0 ? 'none' : found.join('; ')}`,
      warm ? heapTrend(done, warm) : '',
      '',
      renderLimit(done, machine),
      '',
      JSON.stringify({ pages: pages.length, runs, isolation, machine, failed, leftovers: found, levels: done }, null, 2),
      '',
    ].join('\n'),
  )
  return 0
}

runScript('bench:pipeline', USAGE, main)
