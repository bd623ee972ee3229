// Real-page benchmark: the saved real pages of ../shared/real-pages (articles and shop pages),
// served offline, measured from `goal()` to its first decision request with models that answer at
// once (or a checklist text model that takes --text-ms, as a real one does), and Stagehand 4.4's
// `observe()` on the same page in the same run, page by page, so both see the same machine load.
//   npm run bench:real -- [--dir=<real-pages>] [--runs=3] [--pages=<n>] [--only=<text>] [--no-stagehand] [--text-ms=0] [--json=<file>]
// Every host but 127.0.0.1 fails to resolve in both browsers (a flag of Chrome's), so a page's CDNs,
// trackers and fonts fail at once instead of hanging. A page is loaded with a bounded wait and then
// measured as it stands. See scripts/README.md for what each figure means and the latest figures.
import { existsSync } from 'node:fs'
import { readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import puppeteer, { type Browser } from 'puppeteer-core'
import agent from '../src/index.ts'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from '../src/cli/find-chrome.ts'
import { FlagError, integerFlag, parseFlags, stringFlag } from './common/flags.ts'
import { median, p90 } from './common/stats.ts'
import { openStagehand, type StagehandPeer } from './common/stagehand.ts'
import { firstRequestModels } from './real/first-request.ts'
import { serveFixtures } from '../test/helpers/fixture-server.ts'

/** The saved pages beside the checkout (the team's shared folder), unless --dir names another. */
const REAL_PAGES = new URL('../../shared/real-pages/', import.meta.url).pathname
/** Offline: only the local server resolves; every other host fails at once. */
const OFFLINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'
const LOAD_TIMEOUT_MS = 15_000
/** A first request later than this is a failure of the run, not a figure. */
const GOAL_TIMEOUT_MS = 30_000
const REQUEST_BOUND = 40_000
const TARGETS = { median: 12, p90: 8 }

const HELP = `npm run bench:real -- [--dir=<real-pages>] [--runs=3] [--pages=<n>] [--only=<text>] [--no-stagehand] [--text-ms=0] [--json=<file>]
  --dir=<folder>    the saved pages: readability/<site>/source.html and products/<id>.html (default ../shared/real-pages)
  --runs=<n>        runs per page and side (default 3; the median is the page's figure)
  --pages=<n>       only the first n pages (articles and shops alternate)
  --only=<text>     only the pages whose path holds this text
  --no-stagehand    the library alone
  --text-ms=<n>     the text model writes the checklist after n ms, as a real one takes (default 0: at once)
  --json=<file>     also write every figure as JSON`

interface PageFigures {
  page: string
  ms: number | undefined
  chars: number | undefined
  elements: number | undefined
  stagehandMs: number | undefined
  error?: string
}

async function listPages(root: string): Promise<string[]> {
  const articles = (await readdir(join(root, 'readability'), { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => `readability/${entry.name}/source.html`)
    .sort()
  const shops = (await readdir(join(root, 'products'))).filter((name) => name.endsWith('.html')).map((name) => `products/${name}`).sort()
  const pages: string[] = []
  for (let i = 0; i < Math.max(articles.length, shops.length); i++) pages.push(...[articles[i], shops[i]].filter((page): page is string => !!page))
  return pages
}

/** One run of ours: a fresh context, the page loaded, then `goal()` until its first decision request. */
async function measureOurs(browser: Browser, url: string, textMs: number): Promise<{ ms: number; chars: number; elements: number }> {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.setViewport({ width: 1280, height: 800 })
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS }).catch(() => undefined)
    const models = firstRequestModels(textMs)
    const started = performance.now()
    const result = await agent(page).goal('Find the main content of this page and read it', {
      decisions: models.decisions,
      text: models.text,
      signal: AbortSignal.any([models.signal, AbortSignal.timeout(GOAL_TIMEOUT_MS)]),
    })
    const first = models.first()
    if (!first) throw new Error(`no decision request: ${result.error?.message ?? result.status}`)
    return { ms: first.at - started, chars: first.chars, elements: first.elements }
  } finally {
    await context.close().catch(() => undefined)
  }
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['dir', 'runs', 'pages', 'only', 'json', 'text-ms'], booleans: ['help', 'stagehand'] })
  if (flags.help) {
    console.log(HELP)
    return 0
  }
  const runs = integerFlag(flags, 'runs', 3)
  const limit = integerFlag(flags, 'pages', Number.MAX_SAFE_INTEGER)
  const textMs = integerFlag(flags, 'text-ms', 0, 0)
  const json = stringFlag(flags, 'json')
  const executablePath = findChrome()
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
  const args = [...CHROME_FLAGS, '--disable-gpu', OFFLINE]
  const root = stringFlag(flags, 'dir') ?? REAL_PAGES
  if (!existsSync(join(root, 'products'))) throw new FlagError(`No saved real pages at ${root} (a folder with readability/ and products/): pass --dir.`)
  const only = stringFlag(flags, 'only')
  const pages = (await listPages(root)).filter((path) => !only || path.includes(only)).slice(0, limit)
  const server = await serveFixtures({ root })
  const browser = await puppeteer.launch({ executablePath, headless: true, args })
  const peer: StagehandPeer | undefined = flags.stagehand === false ? undefined : await openStagehand({ executablePath, args, timeoutMs: LOAD_TIMEOUT_MS })
  const figures: PageFigures[] = []
  try {
    for (const [index, path] of pages.entries()) {
      const url = server.url(path)
      const ours: { ms: number; chars: number; elements: number }[] = []
      const theirs: number[] = []
      let error: string | undefined
      for (let run = 0; run < runs; run++) {
        try {
          ours.push(await measureOurs(browser, url, textMs))
        } catch (thrown) {
          error = thrown instanceof Error ? thrown.message : String(thrown)
        }
        if (peer) {
          // A fresh load each run, as ours gets: a first observe() reads the page cold.
          await peer.open(url)
          const started = performance.now()
          await peer.observe().then(
            () => theirs.push(performance.now() - started),
            (thrown: unknown) => (error ??= `stagehand: ${thrown instanceof Error ? thrown.message : String(thrown)}`),
          )
        }
      }
      const row: PageFigures = {
        page: path,
        ms: median(ours.map((run) => run.ms)),
        chars: ours.length ? Math.max(...ours.map((run) => run.chars)) : undefined,
        elements: ours.at(-1)?.elements,
        stagehandMs: median(theirs),
        ...(error ? { error } : {}),
      }
      figures.push(row)
      process.stderr.write(`[bench:real] ${index + 1}/${pages.length} ${path}: ${row.ms?.toFixed(0) ?? '–'} ms${row.stagehandMs ? `, Stagehand ${row.stagehandMs.toFixed(0)} ms` : ''}${error ? ` (${error})` : ''}\n`)
    }
  } finally {
    await peer?.close().catch(() => undefined)
    await browser.close()
    await server.close()
  }
  console.log(report(figures, runs, textMs))
  if (json) await writeFile(json, `${JSON.stringify({ runs, textMs, figures }, null, 2)}\n`)
  return 0
}

const ms = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(1)} ms`)
const times = (value: number | undefined) => (value === undefined ? '–' : `${value.toFixed(1)}×`)

function report(figures: PageFigures[], runs: number, textMs: number): string {
  const lines = [
    `Real pages: ${figures.length}, ${runs} runs a side, medians per page; the checklist text model answers after ${textMs} ms.`,
    '',
    '| Page | goal() → first request | Request (chars) | Elements | Stagehand observe() | Ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ]
  for (const row of figures) {
    const ratio = row.ms && row.stagehandMs ? row.stagehandMs / row.ms : undefined
    lines.push(`| ${row.page.replace(/\/source\.html$/, '').slice(0, 40)} | ${ms(row.ms)} | ${row.chars?.toLocaleString('en') ?? '–'} | ${row.elements ?? '–'} | ${ms(row.stagehandMs)} | ${times(ratio)} |${row.error ? ` ${row.error}` : ''}`)
  }
  const ours = figures.flatMap((row) => (row.ms === undefined ? [] : [row.ms]))
  const theirs = figures.flatMap((row) => (row.stagehandMs === undefined ? [] : [row.stagehandMs]))
  const ratios = figures.flatMap((row) => (row.ms && row.stagehandMs ? [row.stagehandMs / row.ms] : []))
  const chars = figures.flatMap((row) => (row.chars === undefined ? [] : [row.chars]))
  const slowest = [...ratios].sort((a, b) => a - b)
  const medianRatio = median(theirs) !== undefined && median(ours) ? median(theirs)! / median(ours)! : undefined
  const p90Ratio = p90(theirs) !== undefined && p90(ours) ? p90(theirs)! / p90(ours)! : undefined
  const met = (value: number | undefined, target: number) => (value === undefined ? '' : value >= target ? ': met' : ': MISSED')
  lines.push(
    '',
    'Totals:',
    `- goal() → first request: median ${ms(median(ours))}, p90 ${ms(p90(ours))}, max ${ms(ours.length ? Math.max(...ours) : undefined)}`,
    `- Stagehand observe(): median ${ms(median(theirs))}, p90 ${ms(p90(theirs))}, max ${ms(theirs.length ? Math.max(...theirs) : undefined)}`,
    `- Faster than Stagehand, at the median: ${times(medianRatio)} (target ≥ ${TARGETS.median}×${met(medianRatio, TARGETS.median)}); at p90: ${times(p90Ratio)} (target ≥ ${TARGETS.p90}×${met(p90Ratio, TARGETS.p90)})`,
    `- Paired, page by page: median ${times(median(ratios))}, the slowest tenth ${times(slowest[Math.floor(slowest.length / 10)])}, the worst ${times(slowest[0])}`,
    `- Largest request: ${chars.length ? Math.max(...chars).toLocaleString('en') : '–'} characters (bound ${REQUEST_BOUND.toLocaleString('en')}${chars.some((value) => value > REQUEST_BOUND) ? ': EXCEEDED' : ': held'})`,
    `- Pages with an error: ${figures.filter((row) => row.error).length}`,
  )
  return lines.join('\n')
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof FlagError ? `${error.message}\n${HELP}` : error)
    process.exit(error instanceof FlagError ? 2 : 1)
  },
)
