// Benchmark of the rules engine: a generated 3,000-row page, nested rules with 5 fields a row, in Chrome.
// Prints the median time inside the page and the median of the whole evaluate round trip.
// Usage: node scripts/bench-rules.ts [--rows=3000] [--runs=15]
import puppeteer from 'puppeteer-core'
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from '../src/cli/find-chrome.ts'
import { PAGE_SCRIPTS } from '../src/page/bundle.generated.ts'
import type { EngineOutcome } from '../src/page/rules-engine.ts'
import type { Rules } from '../types/index.d.ts'

const { values } = parseArgs({ options: { rows: { type: 'string', default: '3000' }, runs: { type: 'string', default: '15' } } })
const rows = Number(values.rows)
const runs = Number(values.runs)

const RULES: Rules = {
  rows: {
    selectorAll: '.row',
    attr: {
      id: { attr: 'data-id' },
      name: { selector: '.name', attr: 'text' },
      price: { selector: '.price', attr: 'text', type: 'number' },
      url: { selector: 'a.link', attr: 'href', type: 'url' },
      added: { selector: 'time', attr: 'text', type: 'date' },
    },
  },
}

function page(count: number): string {
  const items: string[] = []
  for (let i = 0; i < count; i++) {
    items.push(
      `<article class="row card" data-id="r${i}"><header><h2 class="name">Item   number ${i}</h2></header>` +
        `<div class="meta"><span class="price">${(i * 7.31).toFixed(2).replace('.', ',')} €</span> · ` +
        `<time>March ${(i % 28) + 1}, 2024</time></div><p>Some <b>description</b> for item ${i}.</p>` +
        `<a class="link" href="/items/${i}?ref=list">Details</a></article>`,
    )
  }
  return `<!doctype html><html><head><title>bench</title></head><body><main>${items.join('')}</main></body></html>`
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

// Served from a loopback origin so that `url` resolves against a real base URL.
const html = page(rows)
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html))
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const address = server.address()
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/list.html`

const executablePath = findChrome()
if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
const browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROME_FLAGS, '--disable-gpu'] })
try {
  const tab = await browser.newPage()
  await tab.goto(url)
  // Installs the page script once in the page's own world; each run then times only the engine.
  const script = PAGE_SCRIPTS.extract
  await tab.evaluate(`(${script.source})(${JSON.stringify(script.key)}, ${JSON.stringify(script.version)}, 'rulesEngine', {})`)
  const inPage: number[] = []
  const roundTrip: number[] = []
  for (let run = 0; run < runs + 1; run++) {
    const started = performance.now()
    const result = await tab.evaluate((rules: Rules, key: string) => {
      const script = (globalThis as unknown as Record<symbol, { call(name: string, args: unknown[]): EngineOutcome }>)[Symbol.for(key)]!
      const begin = performance.now()
      const outcome = script.call('rulesEngine', [rules]) as { ok: boolean; data?: { rows: unknown[] } }
      return { ms: performance.now() - begin, outcome }
    }, RULES, script.key)
    const total = performance.now() - started
    if (!result.outcome.ok || result.outcome.data?.rows.length !== rows) throw new Error(`Unexpected engine result: ${JSON.stringify(result.outcome).slice(0, 200)}`)
    // The first run warms up the JIT and the style data; it is not counted.
    if (run === 0) continue
    inPage.push(result.ms)
    roundTrip.push(total)
  }
  const sample = await tab.evaluate(
    (rules: Rules, key: string) => (globalThis as unknown as Record<symbol, { call(name: string, args: unknown[]): EngineOutcome }>)[Symbol.for(key)]!.call('rulesEngine', [rules]),
    RULES,
    script.key,
  )
  console.log(JSON.stringify({ rows, fieldsPerRow: 5, runs, medianInPageMs: Number(median(inPage).toFixed(1)), medianRoundTripMs: Number(median(roundTrip).toFixed(1)), firstRow: sample.ok ? (sample.data.rows as unknown[])[0] : sample }, null, 2))
} finally {
  await browser.close()
  server.close()
}
