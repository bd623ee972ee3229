import test, { type ExecutionContext } from 'ava'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CacheStore, ExtractOptions } from '../types/index.d.ts'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { useChrome } from './helpers/chrome.ts'
import { captureLog } from './helpers/debug-log.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { replyingModel } from './helpers/language-models.ts'

// Issue 16, "Extraction": rules a model wrote are kept per instruction, rule skeleton and page
// template, run again with no request while they hold, and written again by the model when not.

const chrome = useChrome(test)
let server: FixtureServer

const product = (name: string, price: string) =>
  `<!doctype html><title>${name}</title><main><h1 class="title">${name}</h1><p class="price">${price}</p><p>Free returns.</p></main>`

/** One product template; page 3 is a redesign (the name moved), page 4 has no price to read as a number. */
const PRODUCTS: Record<string, string> = {
  '1': product('Trail Runner', '€89.90'),
  '2': product('Summit Boot', '€129.00'),
  '3': `<!doctype html><title>Ridge Sandal</title><main><h2 class="product-name">Ridge Sandal</h2><p class="price">€45.00</p></main>`,
  '4': product('Canyon Clog', 'N/A'),
}

test.before(async () => {
  server = await serveFixtures({
    routes: [
      (req, res) => {
        const id = /^\/product\/(\d+)$/.exec(req.url ?? '')?.[1]
        if (!id || !PRODUCTS[id]) return false
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PRODUCTS[id])
        return true
      },
    ],
  })
})

test.after.always(async () => {
  await server?.close()
})

const INSTRUCTION = 'get the product name and price'
const RULES = { rules: { name: { selector: 'h1.title' }, price: { selector: '.price', type: 'number' } } }
const REDESIGNED = { rules: { name: { selector: '.product-name' }, price: { selector: '.price', type: 'number' } } }
const STORED_RULES = { name: { selector: 'h1.title', attr: 'text' }, price: { selector: '.price', attr: 'text', type: 'number' } }

async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'puppeteer-agent-rules-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** The one entry file in `dir`. */
async function entryFile(t: ExecutionContext, dir: string): Promise<string> {
  const files = await readdir(dir)
  t.is(files.length, 1, files.join(', '))
  return join(dir, files[0])
}

/** Opens /product/<id> in a fresh page and extracts with `options`. */
async function extractFrom(t: ExecutionContext, id: string, options: ExtractOptions, instruction = INSTRUCTION, skeleton?: object) {
  const page = agent(await chrome.page(t), options)
  await page.goto(server.url(`/product/${id}`))
  const result = skeleton ? await page.extract(instruction, skeleton as never) : await page.extract(instruction)
  return { result, profiling: await result.profiling() }
}

test('the first extraction writes a readable entry; another page of the template reads it with no request', async (t) => {
  const dir = await tempDir(t)
  const text = replyingModel([RULES])
  const first = await extractFrom(t, '1', { text, cache: dir })
  t.is(first.result.status, 'success', String(first.result.error))
  t.deepEqual(first.result.data, { name: 'Trail Runner', price: 89.9 })
  t.is(first.profiling.cache, 'miss')
  t.is(text.doGenerateCalls.length, 1)
  const entry = JSON.parse(await readFile(await entryFile(t, dir), 'utf8'))
  t.like(entry, { version: 1, kind: 'rules', instruction: INSTRUCTION, page: `${server.origin}/product/:id`, found: ['name', 'price'] })
  t.deepEqual(entry.rules, STORED_RULES)
  t.false(Number.isNaN(Date.parse(entry.savedAt)))

  const second = await extractFrom(t, '2', { text, cache: dir })
  t.is(second.result.status, 'success', String(second.result.error))
  t.deepEqual(second.result.data, { name: 'Summit Boot', price: 129 })
  t.is(second.profiling.cache, 'hit')
  t.is(second.profiling.cost.calls, 0)
  t.deepEqual(second.profiling.rules, STORED_RULES)
  t.is(text.doGenerateCalls.length, 1)
})

test('a stored selector that no longer finds a field: the model writes rules again and they replace the entry', async (t) => {
  const dir = await tempDir(t)
  const text = replyingModel([RULES, REDESIGNED])
  t.is((await extractFrom(t, '1', { text, cache: dir })).profiling.cache, 'miss')
  const healed = await extractFrom(t, '3', { text, cache: dir })
  t.is(healed.result.status, 'success', String(healed.result.error))
  t.deepEqual(healed.result.data, { name: 'Ridge Sandal', price: 45 })
  t.is(healed.profiling.cache, 'healed')
  t.is(text.doGenerateCalls.length, 2)
  t.is(JSON.parse(await readFile(await entryFile(t, dir), 'utf8')).rules.name.selector, '.product-name')
  // The new entry holds on the redesigned page.
  t.is((await extractFrom(t, '3', { text, cache: dir })).profiling.cache, 'hit')
  t.is(text.doGenerateCalls.length, 2)
})

test.serial('an invalid selector in an edited entry: the model writes rules again, healed', async (t) => {
  const dir = await tempDir(t)
  const text = replyingModel([RULES])
  await extractFrom(t, '1', { text, cache: dir })
  const file = await entryFile(t, dir)
  const entry = JSON.parse(await readFile(file, 'utf8'))
  entry.rules.name.selector = 'h1['
  await writeFile(file, JSON.stringify(entry))
  const log = captureLog()
  t.teardown(log.restore)
  const healed = await extractFrom(t, '2', { text, cache: dir })
  t.is(healed.result.status, 'success', String(healed.result.error))
  t.deepEqual(healed.result.data, { name: 'Summit Boot', price: 129 })
  t.is(healed.profiling.cache, 'healed')
  t.is(text.doGenerateCalls.length, 2)
  t.true(log.lines.some((line) => line.includes('"h1[" of field "name" is invalid')), log.lines.join('\n'))
  t.is(JSON.parse(await readFile(file, 'utf8')).rules.name.selector, 'h1.title')
})

test('a value the rule type rejects where one was found before ("N/A" for a number): healed', async (t) => {
  const dir = await tempDir(t)
  const text = replyingModel([RULES])
  await extractFrom(t, '1', { text, cache: dir })
  const healed = await extractFrom(t, '4', { text, cache: dir })
  t.is(healed.result.status, 'success', String(healed.result.error))
  t.deepEqual(healed.result.data, { name: 'Canyon Clog', price: null })
  t.is(healed.profiling.cache, 'healed')
  t.is(text.doGenerateCalls.length, 2)
  // Only what this page had is required from now on.
  t.deepEqual(JSON.parse(await readFile(await entryFile(t, dir), 'utf8')).found, ['name'])
})

test.serial('a file that is not JSON, or an entry that does not validate, is a miss with a debug line, never a failure', async (t) => {
  const dir = await tempDir(t)
  const text = replyingModel([RULES])
  await extractFrom(t, '1', { text, cache: dir })
  const file = await entryFile(t, dir)
  const stored = JSON.parse(await readFile(file, 'utf8'))
  const log = captureLog()
  t.teardown(log.restore)
  for (const [broken, said] of [
    ['{"version": 1, "kind": "rul', /reading .* failed/],
    [JSON.stringify({ version: 1, kind: 'rules', instruction: INSTRUCTION, page: 'x', rules: STORED_RULES, savedAt: 'now' }), /not usable.*found/],
    [JSON.stringify({ version: 2, kind: 'rules' }), /not usable.*version/],
    [JSON.stringify({ ...stored, rules: { price: { selector: '.price', type: 'money' } } }), /not usable.*rules.*unknown type "money"/],
    [JSON.stringify({ ...stored, instruction: 'get the brand' }), /another instruction/],
  ] as const) {
    await writeFile(file, broken)
    const calls = text.doGenerateCalls.length
    const run = await extractFrom(t, '2', { text, cache: dir })
    t.is(run.result.status, 'success', String(run.result.error))
    t.deepEqual(run.result.data, { name: 'Summit Boot', price: 129 })
    t.is(run.profiling.cache, 'miss')
    t.is(text.doGenerateCalls.length, calls + 1)
    t.true(log.lines.some((line) => said.test(line)), log.lines.join('\n'))
    t.is(JSON.parse(await readFile(file, 'utf8')).kind, 'rules')
  }
})

test('a store whose get and set throw: the run goes on with the model', async (t) => {
  const text = replyingModel([RULES])
  const failing: CacheStore = {
    get: () => {
      throw new Error('store down')
    },
    set: async () => {
      throw new Error('store down')
    },
  }
  for (const id of ['1', '2']) {
    const run = await extractFrom(t, id, { text, cache: failing })
    t.is(run.result.status, 'success', String(run.result.error))
    t.is(run.profiling.cache, 'miss')
  }
  t.is(text.doGenerateCalls.length, 2)
})

test('a Map is a store; another instruction is another entry', async (t) => {
  const store = new Map<string, unknown>()
  const text = replyingModel([RULES])
  await extractFrom(t, '1', { text, cache: store })
  t.is(store.size, 1)
  t.like([...store.values()][0], { kind: 'rules', instruction: INSTRUCTION })
  t.is((await extractFrom(t, '2', { text, cache: store })).profiling.cache, 'hit')
  t.is(text.doGenerateCalls.length, 1)
  const other = await extractFrom(t, '2', { text, cache: store }, 'get the name and the price of the product')
  t.is(other.profiling.cache, 'miss')
  t.is(text.doGenerateCalls.length, 2)
  t.is(store.size, 2)
})

test("the caller's rule skeleton is part of the key, whatever the order of its keys", async (t) => {
  const store = new Map<string, unknown>()
  const text = replyingModel([RULES])
  const skeleton = { name: { attr: 'text' }, price: { type: 'number', attr: 'text' } }
  t.is((await extractFrom(t, '1', { text, cache: store }, INSTRUCTION, skeleton)).profiling.cache, 'miss')
  const reordered = { price: { attr: 'text', type: 'number' }, name: { attr: 'text' } }
  const hit = await extractFrom(t, '2', { text, cache: store }, INSTRUCTION, reordered)
  t.is(hit.profiling.cache, 'hit')
  t.deepEqual(hit.result.data, { name: 'Summit Boot', price: 129 })
  t.is((await extractFrom(t, '2', { text, cache: store })).profiling.cache, 'miss')
  t.is(text.doGenerateCalls.length, 2)
})

test("the offline 'local' text model: a hit works; a miss resolves status error with the UsageError", async (t) => {
  const store = new Map<string, unknown>()
  await extractFrom(t, '1', { text: replyingModel([RULES]), cache: store })
  const hit = await extractFrom(t, '2', { text: 'local', cache: store })
  t.is(hit.result.status, 'success', String(hit.result.error))
  t.deepEqual(hit.result.data, { name: 'Summit Boot', price: 129 })
  t.is(hit.profiling.cache, 'hit')
  // A miss, and an entry that no longer holds: nothing can write rules.
  for (const [id, instruction] of [['2', 'get the brand'], ['3', INSTRUCTION]]) {
    const miss = await extractFrom(t, id, { text: 'local', cache: store }, instruction)
    t.is(miss.result.status, 'error')
    t.true(miss.result.error instanceof UsageError)
    t.regex(miss.result.error!.message, /cannot write extraction rules/)
    t.is(miss.profiling.cache, 'miss')
  }
  // Without a cache, the call is refused before any page work, as before.
  const page = agent(await chrome.page(t), { text: 'local' })
  await t.throwsAsync(page.extract(INSTRUCTION), { instanceOf: UsageError, message: /cannot write extraction rules/ })
})

test('a custom extractor runs the stored rules once the built-in engine found they hold', async (t) => {
  const store = new Map<string, unknown>()
  const text = replyingModel([RULES])
  const extractor = async (_page: unknown, rules: unknown) => ({ ran: rules })
  t.is((await extractFrom(t, '1', { text, cache: store, extractor })).profiling.cache, 'miss')
  const hit = await extractFrom(t, '2', { text, cache: store, extractor })
  t.is(hit.profiling.cache, 'hit')
  t.deepEqual(hit.result.data, { ran: STORED_RULES })
  // The built-in engine, not the extractor's data, decides whether they hold.
  const healed = await extractFrom(t, '3', { text, cache: store, extractor })
  t.is(healed.profiling.cache, 'healed')
  t.is(text.doGenerateCalls.length, 2)
})

test('a hit still pins the document: stored rules whose read ends on another document are an error', async (t) => {
  const store = new Map<string, unknown>()
  const text = replyingModel([RULES])
  await extractFrom(t, '1', { text, cache: store })
  const extractor = async (page: { goto(url: string): Promise<unknown> }) => {
    await page.goto(server.url('/product/1'))
    return {}
  }
  const run = await extractFrom(t, '2', { text, cache: store, extractor: extractor as never })
  t.is(run.result.status, 'error')
  t.regex(String(run.result.error), /navigated or replaced its document/)
  t.is(text.doGenerateCalls.length, 1)
})

test('without a cache profiling() has no cache field', async (t) => {
  const run = await extractFrom(t, '1', { text: replyingModel([RULES]) })
  t.is(run.result.status, 'success', String(run.result.error))
  t.false('cache' in run.profiling)
})
