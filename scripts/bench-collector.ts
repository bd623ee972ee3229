// Collector benchmark: median time of observe() and the size of the state it produces, on generated
// pages with a form, a cross-origin iframe, a shadow root and N list items; then the same page with 10
// items beside a shop's filter sidebar of F checkboxes and radios in collapsed (unrendered) lists; then
// a shop category page built like the saved real shop with 3,307 hidden filter inputs (S of them, in a
// category tree beside a long product grid: scripts/collector/shop-menu-page.ts).
//   npm run bench:collector --  [--runs=15] [--sizes=10,300,3000] [--filters=3000] [--shop=3000] [--stagehand] [--stagehand-from=<dir>]
// Two times per page: observe() again on a page that did not change, and observe() after one node was
// added to a control's card on screen (then a 50 ms pause, in which the page draws a frame as it does
// while a step settles).
// With --stagehand, Stagehand's observe() runs on the same pages, interleaved run by run so both see
// the same machine load: the devDependency (4.4), or with --stagehand-from=<dir> the one installed in
// that folder. It drives its own Chrome, offline, with a mock model (scripts/common/stagehand.ts). Its
// state is the accessibility tree text it sends to the model.
// Each measured observation follows a 50 ms pause, as one follows a model call in a run: the previous
// snapshot's handles are released in the background meanwhile.
import { createServer, type Server } from 'node:http'
import { parseArgs } from 'node:util'
import puppeteer from 'puppeteer-core'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from '../src/cli/find-chrome.ts'
import { observe } from '../src/collector/observe.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import type { Snapshot } from '../src/collector/observation.ts'
import { openStagehand } from './common/stagehand.ts'
import { changeOneNode, shopMenuPage } from './collector/shop-menu-page.ts'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '15' },
    sizes: { type: 'string', default: '10,300,3000' },
    filters: { type: 'string', default: '3000' },
    shop: { type: 'string', default: '3000' },
    stagehand: { type: 'boolean' },
    'stagehand-from': { type: 'string' },
  },
})
const runs = Number(values.runs)
const sizes = values.sizes.split(',').map(Number)
const filters = values.filters.split(',').filter(Boolean).map(Number)
const shops = values.shop.split(',').filter(Boolean).map(Number)

/** A filter sidebar as shops build it: groups of `count` checkboxes and radios in total, each group's list collapsed. */
function filterSidebar(count: number): string {
  // 50 options a group, as a brand or size filter has; one group in ten is radios (sort, price band).
  const perGroup = 50
  const groups = Array.from({ length: Math.ceil(count / perGroup) }, (_, g) => {
    const type = g % 10 === 9 ? 'radio' : 'checkbox'
    const options = Array.from(
      { length: Math.min(perGroup, count - g * perGroup) },
      (_, i) => `<li><label><input type="${type}" name="f${g}" value="${i}"> Option ${i} of filter ${g}</label></li>`,
    ).join('')
    return `<section class="filter"><button type="button" aria-expanded="false">Filter ${g}</button><ul class="collapsed">${options}</ul></section>`
  }).join('\n')
  return `<aside><style>.collapsed{display:none}</style>${groups}</aside>`
}

function listPage(items: number, frameUrl: string, sidebar = ''): string {
  const rows = Array.from(
    { length: items },
    (_, i) =>
      `<li class="item"><a href="/item/${i}">Item ${i}: a product with a name</a> <span>${(i * 37) % 1000} €, seller ${i % 17}</span> <button type="button">Add</button></li>`,
  ).join('\n')
  return `<!doctype html><html><head><title>Bench ${items}</title>
<style>body{font:14px sans-serif;margin:0 16px} header{position:sticky;top:0;background:#fff;padding:8px 0} iframe{width:420px;height:120px;border:1px solid #ccc}</style></head>
<body><header><h1>Shop</h1>
<form name="search" action="/search"><label>Search <input name="q" placeholder="What are you looking for?"></label>
<select name="sort"><option>Relevance</option><option>Price: low to high</option><option>Newest</option></select>
<label><input type="checkbox" name="new"> New only</label><button>Search</button></form></header>
<iframe src="${frameUrl}" title="Consent"></iframe>
<shop-cart></shop-cart>${sidebar}
<h2>Results</h2><ul>${rows}</ul>
<script>
customElements.define('shop-cart', class extends HTMLElement {
  constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<p>Cart: <slot>0 items</slot></p><button part="open">Open cart</button><a href="/checkout">Checkout</a>' }
})
</script></body></html>`
}

const CONSENT = `<!doctype html><html><body style="font:13px sans-serif"><p>We use cookies to improve your experience.</p>
<button>Accept all</button> <button>Reject all</button> <a href="/privacy">Privacy policy</a></body></html>`

function serve(host: string, handler: (path: string) => string): Promise<{ server: Server; origin: string }> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(handler(new URL(req.url ?? '/', 'http://x').pathname))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({ server, origin: `http://${host}:${typeof address === 'object' && address ? address.port : 0}` })
    }),
  )
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 50))

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** What one decision request carries: the state and the questions, exactly as the decision client builds them. */
function stateSize(snapshot: Snapshot): number {
  const { state, questions } = buildDecisionRequest({ goal: 'Open the newest item.', observation: snapshot.observation, recent: [] })
  return JSON.stringify({ state, questions }).length
}

const executablePath = findChrome()
if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
const frames = await serve('localhost', () => CONSENT)
const pages = await serve('127.0.0.1', (path) => {
  const frameUrl = `${frames.origin}/consent`
  if (path.startsWith('/shop/')) return shopMenuPage(Number(path.slice(6)))
  return path.startsWith('/filters/') ? listPage(10, frameUrl, filterSidebar(Number(path.slice(9)))) : listPage(Number(path.slice(1)) || 10, frameUrl)
})
const browser = await puppeteer.launch({ executablePath, headless: true, args: [...CHROME_FLAGS, '--disable-gpu'] })
const rival = values.stagehand || values['stagehand-from'] ? await openStagehand({ executablePath, args: [...CHROME_FLAGS, '--disable-gpu'], from: values['stagehand-from'] }) : undefined
try {
  const page = await browser.newPage()
  await page.setViewport({ width: 1280, height: 800 })
  const rows: string[] = []
  const cases = [...sizes.map((n) => ({ label: String(n), path: `/${n}` })), ...filters.map((f) => ({ label: `10 + ${f} hidden filters`, path: `/filters/${f}` })), ...shops.map((f) => ({ label: `shop: ${f} hidden inputs, 1,000 cards`, path: `/shop/${f}` }))]
  for (const { label: n, path } of cases) {
    const url = `${pages.origin}${path}`
    process.stderr.write(`N=${n}: opening\n`)
    await page.goto(url, { waitUntil: 'load' })
    await rival?.open(url)
    process.stderr.write(`N=${n}: measuring\n`)
    let snapshot: Snapshot | undefined
    for (let i = 0; i < 3; i++) {
      snapshot = await observe(page, { previous: snapshot })
      await rival?.observe()
    }
    const times: number[] = []
    const rivalTimes: number[] = []
    let rivalChars = 0
    for (let i = 0; i < runs; i++) {
      await pause()
      let started = performance.now()
      snapshot = await observe(page, { previous: snapshot })
      // Until its handles are in too: the whole of what an observation costs, as measured before the
      // goal loop was handed observations before their handles.
      await snapshot.ready
      times.push(performance.now() - started)
      if (rival) {
        await pause()
        started = performance.now()
        rivalChars = await rival.observe()
        rivalTimes.push(performance.now() - started)
      }
    }
    const changedTimes: number[] = []
    for (let i = 0; i < runs; i++) {
      await page.evaluate(changeOneNode, i)
      await pause()
      const started = performance.now()
      snapshot = await observe(page, { previous: snapshot })
      await snapshot.ready
      changedTimes.push(performance.now() - started)
    }
    const observation = snapshot!.observation
    const ours = median(times)
    process.stderr.write(`N=${n}: done\n`)
    const theirs = rival ? ` | ${median(rivalTimes).toFixed(1)} ms | ${rivalChars.toLocaleString('en')} | ${(median(rivalTimes) / ours).toFixed(1)}× |` : ' |'
    rows.push(
      `| ${n} | ${ours.toFixed(1)} ms | ${median(changedTimes).toFixed(1)} ms | ${stateSize(snapshot!).toLocaleString('en')} | ${JSON.stringify(observation).length.toLocaleString('en')} | ${observation.elements.length} | ${observation.omitted} | ${observation.frames.length}${theirs}`,
    )
    await snapshot!.dispose()
  }
  console.log(`Chrome ${await browser.version()}, ${runs} runs per size, viewport 1280×800\n`)
  const rivalColumns = rival ? ' Stagehand 4.4 observe() | Stagehand state (chars) | speed-up |' : ''
  const rivalRule = rival ? ' --- | --- | --- |' : ''
  console.log(`| Page | observe() median, unchanged | after a one-node change | request: state + questions (chars) | full observation JSON (chars) | elements | omitted | frames |${rivalColumns}`)
  console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |${rivalRule}`)
  for (const row of rows) console.log(row)
} finally {
  await rival?.close()
  await browser.close()
  pages.server.close()
  frames.server.close()
}
