import test from 'ava'
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The Crawlee example (examples/crawlee/crawl.js), run as a user runs it: a child process, offline
// (the 'local' models), on a small shop, with its storage and cache in a temporary directory. Its
// dataset is compared with the shop's own generator.

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const CRAWL = fileURLToPath(new URL('../examples/crawlee/crawl.js', import.meta.url))

interface Product {
  path: string
  name: string
  price: number
  sku: string
  inStock: boolean
  specs: Record<string, string>
}
interface Category {
  name: string
  path: string
  products: Product[]
}
const site = createRequire(import.meta.url)('../examples/crawlee/site.js') as {
  catalog(options: { categories: number; perCategory: number }): Category[]
  sorted(products: Product[], sort: string): Product[]
}

// 4 categories of 6 products, 4 to a list page: 1 home + 4 categories + 4 second pages + 24 products.
const SHOP = { categories: 4, perCategory: 6 }
const FLAGS = ['--categories=4', '--per-category=6', '--per-page=4', '--port=0', '--concurrency=4']

function crawl(storage: string) {
  // No key, debug output or storage settings from the surrounding shell: offline, in `storage`.
  const { AI_GATEWAY_API_KEY, DEBUG, PUPPETEER_AGENT_CACHE, PUPPETEER_AGENT_RECORD, CRAWLEE_STORAGE_DIR, ...env } = process.env
  const child = spawn(process.execPath, [CRAWL, ...FLAGS, `--storage=${storage}`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, output }))
  })
}

async function dataset(storage: string): Promise<Record<string, any>[]> {
  const dir = join(storage, 'datasets', 'default')
  const files = (await readdir(dir)).filter((name) => name.endsWith('.json'))
  return Promise.all(files.map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8'))))
}

test('the Crawlee example crawls the shop offline: every product once, goals replayed after the first', async (t) => {
  t.timeout(90_000)
  const storage = await mkdtemp(join(tmpdir(), 'puppeteer-agent-crawlee-'))
  t.teardown(() => rm(storage, { recursive: true, force: true }))

  const started = Date.now()
  const { code, output } = await crawl(storage)
  const seconds = (Date.now() - started) / 1000
  t.is(code, 0, output)
  t.true(seconds < 60, `took ${seconds} s`)
  t.regex(output, /^Crawled 33 pages in [\d.]+ s with at most 4 at once \([\d.]+ pages\/s\), 0 failed$/m)
  t.regex(output, /^Products extracted: 24 \(complete rules, no model\)$/m)
  // The first category's goal is run by the (local) model and stored; the three others replay it.
  t.regex(output, /^Goals: 4 run, 3 replayed from the cache, 1 by the model$/m)
  t.regex(output, /^Model requests: \d+ \(offline local models\); time in goals and extractions: [\d.]+ s$/m)

  const shop = site.catalog(SHOP)
  const items = await dataset(storage)
  const products = items.filter((item) => item.type === 'product')
  const expected = shop.flatMap((category) => category.products.map((product) => ({ category, product })))
  t.is(products.length, expected.length)
  for (const { category, product } of expected) {
    const found = products.filter((item) => new URL(item.url).pathname === product.path)
    t.is(found.length, 1, product.path)
    t.like(found[0], {
      name: product.name,
      price: product.price,
      category: category.name,
      sku: product.sku,
      stock: product.inStock ? 'In stock' : 'Out of stock',
    })
    t.deepEqual(
      found[0]!.specs,
      Object.entries(product.specs).map(([name, value]) => ({ name, value })),
    )
  }

  // Each category was sorted by the goal: the first product listed is the cheapest of all its pages.
  // (In the shop's own order the cheapest comes first in some category only by chance: not in all.)
  t.false(shop.every((category) => category.products[0] === site.sorted(category.products, 'price-asc')[0]))
  const categories = items.filter((item) => item.type === 'category')
  t.is(categories.length, shop.length)
  for (const category of shop) {
    const cheapest = site.sorted(category.products, 'price-asc')[0]!
    const item = categories.find((entry) => new URL(entry.url).pathname === category.path)
    t.deepEqual(item && { category: item.category, cheapest: item.cheapest }, { category: category.name, cheapest: { name: cheapest.name, price: cheapest.price } })
  }

  // One goal entry in the cache; the product rules were complete, so nothing else was stored.
  const entries = await readdir(join(storage, 'agent-cache'))
  t.deepEqual(entries.map((name) => name.replace(/\.[0-9a-f]{40}\.json$/, '')), ['puppeteer-agent.goal'])
})
