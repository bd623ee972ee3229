// puppeteer-agent inside a Crawlee pipeline (`npm run example:crawlee`).
//
// Crawlee's PuppeteerCrawler crawls the generated shop of ./site.js: the home page, every category
// (with its later pages) and every product. On the first page of each category the agent is given a
// goal, to sort the list by price, and the cheapest product is read; on every product page it
// extracts the product. Everything goes to Crawlee's dataset. Crawlee does the crawling (queue,
// retries, concurrency, sessions, storage); the library does what needs a model, and with its replay
// cache the model works once per page template: the first category's goal is replayed on the others.
//
//   node examples/crawlee/crawl.js [--concurrency=4] [--max-pages=N] [--categories=8] [--per-category=30] [--per-page=12]
//                                  [--storage=<dir>] [--cache=<dir> | --cache=redis://host:6379] [--record=<dir>] [--port=8377]
//
// Without AI_GATEWAY_API_KEY it runs offline on the 'local' models; with the key, on the default models.
const { parseArgs } = require('node:util')
const { join, resolve } = require('node:path')
const { performance } = require('node:perf_hooks')
const { startShop } = require('./site')

/** The flags, checked: a bad one ends the command with its message and exit code 2. */
function readArgs() {
  const { values } = parseArgs({
    options: {
      concurrency: { type: 'string', default: '4' },
      'max-pages': { type: 'string' },
      categories: { type: 'string', default: '8' },
      'per-category': { type: 'string', default: '30' },
      'per-page': { type: 'string', default: '12' },
      storage: { type: 'string', default: join(__dirname, 'storage') },
      cache: { type: 'string' },
      record: { type: 'string' },
      // A fixed origin, as a real site has: the cache's keys hold it, so a second run replays everything.
      port: { type: 'string', default: '8377' },
    },
  })
  const whole = (name, least = 1) => {
    const value = Number(values[name])
    if (!Number.isInteger(value) || value < least) throw new Error(`--${name} must be a whole number ≥ ${least}, not "${values[name]}"`)
    return value
  }
  const storage = resolve(values.storage)
  return {
    concurrency: whole('concurrency'),
    maxPages: values['max-pages'] === undefined ? undefined : whole('max-pages'),
    site: { categories: whole('categories'), perCategory: whole('per-category'), perPage: whole('per-page'), port: whole('port', 0) },
    storage,
    cache: values.cache ?? join(storage, 'agent-cache'),
    record: values.record && resolve(values.record),
  }
}

let args
try {
  args = readArgs()
} catch (error) {
  console.error(`crawl.js: ${error.message}`)
  process.exit(2)
}

// Crawlee keeps its request queue and dataset under CRAWLEE_STORAGE_DIR; it is read when Crawlee
// first opens a storage, so it is set before Crawlee is loaded.
process.env.CRAWLEE_STORAGE_DIR = args.storage
const { PuppeteerCrawler, createPuppeteerRouter, Dataset } = require('@crawlee/puppeteer')
const puppeteer = require('puppeteer-core')
// The example runs from this checkout, where the package is `../..`; your own crawler writes
// require('puppeteer-agent') and passes its own Chrome (or uses the full `puppeteer` package).
const agent = require('../..')
const { findChrome, CHROME_FLAGS, NO_CHROME_MESSAGE } = require('../../dist/cli/find-chrome.js')

const SORT_GOAL = 'Sort the products by lowest price first'
const PRODUCT_INSTRUCTION = 'Get the product: name, price, stock, category, SKU, description and specifications'

// The product's fields and types. With a real model these are all it gets: it writes the selectors
// (one request), and the cache keeps the rules it wrote for every later product page.
const PRODUCT_FIELDS = {
  name: { type: 'string' },
  price: { type: 'number' },
  stock: { type: 'string' },
  category: { type: 'string' },
  sku: { type: 'string' },
  description: { type: 'string' },
  specs: { attr: { name: { type: 'string' }, value: { type: 'string' } } },
}
// The same fields with their selectors. The offline 'local' text model cannot write rules, so
// offline the extraction gets them complete: `extract(instruction, rules)` with a selector on every
// field makes no request (and does not use the cache: there is nothing a model wrote to keep).
const PRODUCT_RULES = {
  name: { selector: 'h1', attr: 'text', type: 'string' },
  price: { selector: '.price', attr: 'text', type: 'number' },
  stock: { selector: '.stock', attr: 'text', type: 'string' },
  category: { selector: '.breadcrumbs a:last-of-type', attr: 'text', type: 'string' },
  sku: { selector: '.sku span', attr: 'text', type: 'string' },
  description: { selector: '.description', attr: 'text', type: 'string' },
  specs: {
    selectorAll: '.specs div',
    attr: { name: { selector: 'dt', attr: 'text', type: 'string' }, value: { selector: 'dd', attr: 'text', type: 'string' } },
  },
}
// What the sorted list shows: read with rules, no model, online or not.
const CHEAPEST_RULES = {
  category: { selector: 'h1', attr: 'text' },
  cheapest: {
    selector: '.products li',
    attr: { name: { selector: 'a', attr: 'text' }, price: { selector: '.price', attr: 'text', type: 'number' } },
  },
}

/** Where the agent keeps what the model learned: a directory, or a Redis server shared by many crawlers. */
function cacheStore(where) {
  if (!/^rediss?:\/\//.test(where)) return resolve(where)
  const { default: Keyv } = require('keyv')
  const { default: KeyvRedis } = require('@keyv/redis')
  // Fail fast when Redis is away: the agent then goes on with the model (docs/replay-cache.md).
  const store = new KeyvRedis({ url: where, disableOfflineQueue: true }, { connectionTimeout: 500, throwOnErrors: true })
  return new Keyv({ store, throwOnErrors: true })
}

/**
 * Crawlee runs several pages at once, so the first pages of a template would all miss the cache
 * and all ask the model. The first call for a template runs alone; the others wait for it and then
 * find what it stored. If it fails, they go on without it.
 */
const learning = new Map()
function learnedOnce(template, run) {
  const first = learning.get(template)
  if (first) return first.then(run)
  const result = run()
  learning.set(template, result.then(() => undefined, () => undefined))
  return result
}

async function main() {
  const started = performance.now()
  const local = !process.env.AI_GATEWAY_API_KEY
  if (local) console.log('No AI_GATEWAY_API_KEY: the offline local models decide (word overlap), and products are read with complete rules.')
  const chrome = findChrome()
  if (!chrome) {
    console.error(NO_CHROME_MESSAGE)
    process.exitCode = 2
    return
  }
  const cache = cacheStore(args.cache)
  const agentOptions = {
    ...(local && { decisions: 'local', text: 'local', evaluator: 'local' }),
    cache,
    ...(args.record && { record: args.record }),
  }
  const tally = { goals: 0, goalHits: 0, products: 0, rulesHits: 0, requests: 0, usd: 0, agentMs: 0 }
  const count = ({ cost, timing }) => {
    tally.requests += cost.calls
    tally.usd += cost.usd ?? 0
    tally.agentMs += timing.totalMs
  }
  const router = createPuppeteerRouter()
  router.addDefaultHandler(async ({ enqueueLinks }) => {
    await enqueueLinks({ selector: 'a.category', label: 'CATEGORY' })
  })

  // The first page of a category: enqueue its products and pages, then sort it and note the cheapest.
  router.addHandler('CATEGORY', async ({ page, request, enqueueLinks }) => {
    await enqueueLinks({ globs: ['**/product/*'], label: 'PRODUCT' })
    await enqueueLinks({ selector: '.pagination a.page', label: 'LIST' })
    const agentPage = agent(page, agentOptions)
    const run = await learnedOnce('sort', () => agentPage.goal(SORT_GOAL))
    // profiling() asks the evaluator once whether the goal was met, and says what the cache did.
    const profiled = await run.profiling()
    count(profiled)
    tally.goals++
    if (profiled.cache === 'hit') tally.goalHits++
    // Thrown, the error makes Crawlee retry the request on a fresh page (maxRequestRetries).
    if (run.status === 'error') throw run.error
    const read = await agentPage.extract(CHEAPEST_RULES)
    if (read.status === 'error') throw read.error
    await Dataset.pushData({ type: 'category', url: request.url, ...read.data })
  })

  // Later pages of a category: only more products to enqueue.
  router.addHandler('LIST', async ({ enqueueLinks }) => {
    await enqueueLinks({ globs: ['**/product/*'], label: 'PRODUCT' })
  })

  router.addHandler('PRODUCT', async ({ page, request }) => {
    const agentPage = agent(page, agentOptions)
    const result = await learnedOnce('product', () =>
      local ? agentPage.extract(PRODUCT_INSTRUCTION, PRODUCT_RULES) : agentPage.extract(PRODUCT_INSTRUCTION, PRODUCT_FIELDS),
    )
    const profiled = await result.profiling()
    count(profiled)
    tally.products++
    if (profiled.cache === 'hit') tally.rulesHits++
    if (result.status === 'error') throw result.error
    await Dataset.pushData({ type: 'product', url: request.url, ...result.data })
  })

  const crawler = new PuppeteerCrawler({
    requestHandler: router,
    launchContext: {
      launcher: puppeteer,
      // --no-sandbox and friends: Chrome as root in a container, on a closed network.
      launchOptions: { executablePath: chrome, headless: true, args: [...CHROME_FLAGS] },
    },
    maxConcurrency: args.concurrency,
    // Start at the given concurrency; Crawlee still scales down when the CPU or memory is overloaded.
    autoscaledPoolOptions: { desiredConcurrency: args.concurrency },
    ...(args.maxPages && { maxRequestsPerCrawl: args.maxPages }),
    // A goal run by a model takes seconds; pages waiting in learnedOnce wait for it too.
    requestHandlerTimeoutSecs: 120,
    // Proxies: proxyConfiguration: new ProxyConfiguration({ proxyUrls: [...] }); sessions rotate with them.
  })

  const site = await startShop(args.site).catch(async (error) => {
    await cache.disconnect?.()
    if (error.code !== 'EADDRINUSE') throw error
    // Any free port works too, but the cache's keys hold the origin: on a new port it learns anew.
    throw new Error(`Port ${args.site.port} is in use: pass --port=<another>, or --port=0 for any free one.`)
  })
  let stats
  try {
    stats = await crawler.run([site.url])
  } finally {
    await site.close()
    await cache.disconnect?.()
  }
  const seconds = (performance.now() - started) / 1000
  const { items } = await Dataset.getData({ limit: 1_000_000 })
  const pages = stats.requestsFinished + stats.requestsFailed
  const written = local ? 'complete rules, no model' : `rules the model wrote, ${tally.rulesHits} of ${tally.products} from the cache`
  console.log(
    [
      `Crawled ${pages} pages in ${seconds.toFixed(1)} s with at most ${args.concurrency} at once (${(pages / seconds).toFixed(1)} pages/s), ${stats.requestsFailed} failed`,
      `Products extracted: ${items.filter((item) => item.type === 'product').length} (${written})`,
      `Goals: ${tally.goals} run, ${tally.goalHits} replayed from the cache, ${tally.goals - tally.goalHits} by the model`,
      `Model requests: ${tally.requests}${local ? ' (offline local models)' : `, $${tally.usd.toFixed(4)}`}; time in goals and extractions: ${(tally.agentMs / 1000).toFixed(1)} s`,
      `Dataset: ${items.length} items in ${join(args.storage, 'datasets', 'default')}`,
      `Cache: ${typeof cache === 'string' ? cache : args.cache}${args.record ? ` · recordings: ${args.record}` : ''}`,
    ].join('\n'),
  )
  if (stats.requestsFailed > 0) process.exitCode = 1
}

main().catch((error) => {
  console.error(process.env.DEBUG ? error : `crawl.js: ${error.message}`)
  process.exitCode = 1
})
