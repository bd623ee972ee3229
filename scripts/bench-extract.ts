// Extraction benchmark on the saved shop pages of ../shared/real-pages/products, served offline:
// (a) the outline a model is shown to write rules: its size, and whether the true price, the SKU and
// a stock line are inside it; (b) `page.extract(rules)` with the rules of scripts/extract/product-rules.json,
// written by a person from each page's outline, scored with the corpus's metric (scripts/extract/score.ts).
// The same rules are also scored in the rule language before issue 28 (scripts/extract/plain-rules.ts).
// With --replies=<dir>, <dir>/<id>.json is the rule writer's reply for a page (what a model answered
// to the request --dump wrote), and the data it gives through the library is scored too.
//   npm run bench:extract -- [--dir=<real-pages>] [--only=<text>] [--dump=<dir>] [--replies=<dir>] [--json=<file>]
// See scripts/README.md for what each figure means and the latest figures.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { MockLanguageModelV4 } from 'ai/test'
import puppeteer, { type Browser } from 'puppeteer-core'
import agent from '../src/index.ts'
import type { Rules } from '../types/index.d.ts'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from '../src/cli/find-chrome.ts'
import { FlagError, parseFlags, stringFlag } from './common/flags.ts'
import { median } from './common/stats.ts'
import { outlineHolds, type OutlineHolds } from './extract/outline-check.ts'
import { plainRules } from './extract/plain-rules.ts'
import { FIELDS, score, verdict, type Field, type Truth, type Verdict } from './extract/score.ts'
import { serveFixtures } from '../test/helpers/fixture-server.ts'

const REAL_PAGES = new URL('../../shared/real-pages/', import.meta.url).pathname
const RULES_FILE = new URL('./extract/product-rules.json', import.meta.url)
/** Offline: only the local server resolves; every other host fails at once. */
const OFFLINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'
const LOAD_TIMEOUT_MS = 15_000
/** The issue's bound on the median request, in characters. */
const REQUEST_GOAL = 20_000
const INSTRUCTION = "Read the product's price, currency, SKU and availability"
const FIELD_TEMPLATE = { price: { type: 'number' }, currency: {}, sku: {}, availability: {} } as const

const HELP = `npm run bench:extract -- [--dir=<real-pages>] [--only=<text>] [--dump=<dir>] [--replies=<dir>] [--json=<file>]
  --dir=<folder>   the saved pages, with products/<id>.html and products/ground-truth.json (default ../shared/real-pages)
  --only=<text>    only the pages whose id holds this text
  --dump=<dir>     write each page's rule-writing request to <dir>/<id>.txt, to read or write rules from
  --replies=<dir>  score the data the replies <dir>/<id>.json give when they answer those requests
  --json=<file>    also write every figure as JSON`

interface PageRules {
  rules: Rules
}

/** Rules written by a person, the same in the earlier rule language, and a model's reply. */
type Variant = 'rules' | 'plain' | 'model'
const VARIANTS: readonly Variant[] = ['rules', 'plain', 'model']
const VARIANT_NAMES: Record<Variant, string> = { rules: 'rules', plain: 'rules in the earlier rule language', model: "the replies' rules" }

interface PageFigures {
  id: string
  requestChars: number
  holds: OutlineHolds
  verdicts: Partial<Record<Variant, Record<Field, Verdict>>>
  data: Partial<Record<Variant, Record<string, unknown>>>
  error?: string
}

/** A text model that keeps the request it gets and answers `reply`, or rules that read only the title. */
function capturingModel(reply?: string): { model: MockLanguageModelV4; request: () => string } {
  let request = ''
  const model = new MockLanguageModelV4({
    doGenerate: async (call) => {
      request = call.prompt.map((message) => (typeof message.content === 'string' ? message.content : message.content.map((part) => ('text' in part ? part.text : '')).join(''))).join('\n')
      const rules = Object.fromEntries(Object.keys(FIELD_TEMPLATE).map((field) => [field, { selector: 'title' }]))
      return {
        content: [{ type: 'text', text: reply ?? JSON.stringify({ rules }) }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 0, text: 0, reasoning: undefined } },
        warnings: [],
      }
    },
  })
  return { model, request: () => request }
}

function score1(figures: Omit<PageFigures, 'id'>, variant: Variant, data: Record<string, unknown>, truth: Truth): void {
  figures.data[variant] = data
  figures.verdicts[variant] = Object.fromEntries(FIELDS.map((field) => [field, verdict(field, data[field], truth[field])])) as Record<Field, Verdict>
}

async function measurePage(browser: Browser, url: string, truth: Truth, rules: PageRules | undefined, reply: string | undefined): Promise<Omit<PageFigures, 'id'> & { request: string }> {
  const context = await browser.createBrowserContext()
  try {
    const page = await context.newPage()
    await page.setViewport({ width: 1280, height: 800 })
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS }).catch(() => undefined)
    const agentPage = agent(page, { cache: false, record: false })
    const writer = capturingModel(reply)
    const written = await agentPage.extract(INSTRUCTION, FIELD_TEMPLATE, { text: writer.model })
    const request = writer.request()
    if (!request) throw new Error('the rule writer made no request')
    const figures: Omit<PageFigures, 'id'> & { request: string } = { request, requestChars: request.length, holds: outlineHolds(request, truth), verdicts: {}, data: {} }
    // A reply whose rules fail counts as finding nothing, as it would for the caller.
    if (reply !== undefined) score1(figures, 'model', written.status === 'success' ? (written.data as Record<string, unknown>) : {}, truth)
    for (const variant of ['rules', 'plain'] as const) {
      if (!rules) continue
      const chosen = variant === 'rules' ? rules.rules : plainRules(rules.rules)
      const result = await agentPage.extract(chosen)
      if (result.status !== 'success') throw new Error(`${variant}: ${result.error?.message ?? result.status}`)
      score1(figures, variant, result.data as Record<string, unknown>, truth)
    }
    return figures
  } finally {
    await context.close().catch(() => undefined)
  }
}

function yesNo(value: boolean | undefined): string {
  return value === undefined ? '–' : value ? 'yes' : 'NO'
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['dir', 'only', 'dump', 'replies', 'json'], booleans: ['help'] })
  if (flags.help) {
    console.log(HELP)
    return 0
  }
  const root = stringFlag(flags, 'dir') ?? REAL_PAGES
  const products = join(root, 'products')
  if (!existsSync(join(products, 'ground-truth.json'))) throw new FlagError(`No saved shop pages at ${products} (with ground-truth.json): pass --dir.`)
  const truths = JSON.parse(readFileSync(join(products, 'ground-truth.json'), 'utf8')) as Record<string, Truth>
  const allRules = JSON.parse(readFileSync(RULES_FILE, 'utf8')) as Record<string, PageRules>
  const only = stringFlag(flags, 'only')
  const dump = stringFlag(flags, 'dump')
  const replies = stringFlag(flags, 'replies')
  if (dump) await mkdir(dump, { recursive: true })
  const ids = (await readdir(products)).filter((name) => name.endsWith('.html')).map((name) => name.slice(0, -5)).filter((id) => !only || id.includes(only)).sort()
  const executablePath = findChrome()
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
  const server = await serveFixtures({ root: products })
  const browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROME_FLAGS, '--disable-gpu', OFFLINE] })
  const figures: PageFigures[] = []
  try {
    for (const [index, id] of ids.entries()) {
      const truth = truths[id] ?? {}
      try {
        const replyFile = replies && join(replies, `${id}.json`)
        const reply = replyFile && existsSync(replyFile) ? readFileSync(replyFile, 'utf8') : undefined
        const { request, ...measured } = await measurePage(browser, server.url(`${id}.html`), truth, allRules[id], reply)
        const row = { id, ...measured }
        figures.push(row)
        if (dump) await writeFile(join(dump, `${id}.txt`), request)
        process.stderr.write(`[bench:extract] ${index + 1}/${ids.length} ${id.slice(0, 10)}: ${row.requestChars} chars, price ${yesNo(row.holds.price)}, sku ${yesNo(row.holds.sku)}, stock ${yesNo(row.holds.stock)}\n`)
      } catch (thrown) {
        const error = thrown instanceof Error ? thrown.message : String(thrown)
        const none = { price: undefined, sku: undefined, stock: false }
        figures.push({ id, requestChars: 0, holds: { ...none, shown: none }, verdicts: {}, data: {}, error })
        process.stderr.write(`[bench:extract] ${index + 1}/${ids.length} ${id.slice(0, 10)}: ${error}\n`)
      }
    }
  } finally {
    await browser.close()
    await server.close()
  }
  report(figures)
  const json = stringFlag(flags, 'json')
  if (json) await writeFile(json, `${JSON.stringify(figures, null, 2)}\n`)
  return 0
}

function report(figures: readonly PageFigures[]): void {
  console.log('\n| page | request chars | price / SKU / stock in the outline | shown by the page\'s elements | price | SKU | availability |')
  console.log('| --- | ---: | --- | --- | --- | --- | --- |')
  for (const row of figures) {
    const cells = FIELDS.map((field) => row.verdicts.rules?.[field] ?? '–')
    const { holds } = row
    console.log(
      `| ${row.id.slice(0, 10)} | ${row.requestChars} | ${yesNo(holds.price)} / ${yesNo(holds.sku)} / ${yesNo(holds.stock)} | ${yesNo(holds.shown.price)} / ${yesNo(holds.shown.sku)} / ${yesNo(holds.shown.stock)} | ${cells.join(' | ')} |${row.error ? ` ${row.error}` : ''}`,
    )
  }
  const measured = figures.filter((row) => !row.error)
  const count = (pick: (holds: OutlineHolds) => boolean | undefined) => {
    const known = measured.filter((row) => pick(row.holds) !== undefined)
    return `${known.filter((row) => pick(row.holds)).length} of ${known.length}`
  }
  const chars = measured.map((row) => row.requestChars)
  console.log(`\nRequest: median ${median(chars)?.toFixed(0)} characters (goal ${REQUEST_GOAL.toLocaleString('en')}), largest ${Math.max(...chars)}.`)
  console.log(`Inside the outline: price ${count((h) => h.price)}, SKU ${count((h) => h.sku)}, stock ${count((h) => h.stock)}.`)
  console.log(`Shown by the page's elements in it: price ${count((h) => h.shown.price)}, SKU ${count((h) => h.shown.sku)}, stock ${count((h) => h.shown.stock)}.`)
  for (const variant of VARIANTS) {
    const scored = measured.filter((row) => row.verdicts[variant])
    if (!scored.length) continue
    const cells = FIELDS.map((field) => {
      const { f1, precision, recall, support } = score(scored.map((row) => row.verdicts[variant]![field]))
      return `${field} F1 ${f1.toFixed(3)} (P ${precision.toFixed(3)}, R ${recall.toFixed(3)}, support ${support})`
    })
    console.log(`extract(${VARIANT_NAMES[variant]}) on ${scored.length} pages: ${cells.join('; ')}`)
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof FlagError ? error.message : error)
    process.exit(error instanceof FlagError ? 2 : 1)
  },
)
