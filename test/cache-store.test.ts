import test from 'ava'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CACHE_ENV, resolveCache } from '../src/cache/cache-settings.ts'
import { directoryStore, readEntry, STORE_TIMEOUT_MS, writeEntry } from '../src/cache/cache-store.ts'
import { cacheKey, pageShape } from '../src/cache/page-shape.ts'
import { UsageError } from '../src/errors.ts'
import { mergeSettings, parseOptions } from '../src/options.ts'
import { captureLog } from './helpers/debug-log.ts'
import { valueOf } from './fixtures/cache/write-many.ts'

const WRITER = fileURLToPath(new URL('fixtures/cache/write-many.ts', import.meta.url))

async function temporaryDir(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'puppeteer-agent-cache-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  return dir
}

test('pageShape keeps the origin and the sections of a path and stands :id for the parts that name one item', (t) => {
  t.is(pageShape('https://shop.test/product/123?ref=mail#reviews'), 'https://shop.test/product/:id')
  t.is(pageShape('https://shop.test/p/5f3a9c2e1b7d4e6f8a9b0c1d/reviews'), 'https://shop.test/p/:id/reviews')
  t.is(pageShape('https://shop.test/order/3fa85f64-5717-4562-a716-446655440000'), 'https://shop.test/order/:id')
  t.is(pageShape('https://shop.test/s/aB3dE5fG7hJ9kL'), 'https://shop.test/s/:id')
  t.is(pageShape('https://shop.test/items/sku-00042/'), 'https://shop.test/items/:id/')
  t.is(pageShape('https://shop.test/blog/2024/05/my-first-post'), 'https://shop.test/blog/:id/:id/my-first-post')
  t.is(pageShape('https://shop.test/category/running-shoes/'), 'https://shop.test/category/running-shoes/')
  t.is(pageShape('https://shop.test/v2/page2'), 'https://shop.test/v2/page2')
  t.is(pageShape('https://shop.test/search?q=shoes&page=3'), 'https://shop.test/search')
  t.is(pageShape('http://127.0.0.1:8080/'), 'http://127.0.0.1:8080/')
  t.not(pageShape('https://a.test/product/1'), pageShape('https://b.test/product/1'))
  for (const notAUrl of ['about:blank', 'not a url', '']) t.is(pageShape(notAUrl), notAUrl)
})

test('cacheKey is stable, tells kinds and parts apart, and is a safe file name', (t) => {
  const key = cacheKey('goal', ['Find "shoes" / buy', 'https://shop.test/product/:id'])
  t.is(key, cacheKey('goal', ['Find "shoes" / buy', 'https://shop.test/product/:id']))
  t.regex(key, /^puppeteer-agent\.goal\.[0-9a-f]{40}$/)
  t.not(cacheKey('rules', ['a', 'b']), cacheKey('goal', ['a', 'b']))
  t.not(cacheKey('goal', ['a|b']), cacheKey('goal', ['a', 'b']))
  t.not(cacheKey('goal', ['ab', '']), cacheKey('goal', ['a', 'b']))
})

test('a bad cache option is a UsageError saying what was wrong', (t) => {
  const cases: [unknown, RegExp][] = [
    [{ store: 'dir', ttl: 60 }, /unknown cache setting "ttl" \(known: store, typedValues, confirmDone\)/],
    [{ store: 42 }, /cache\.store must be a directory or an object with get\(key\) and set\(key, value\)/],
    [{ store: { get() {} } }, /cache\.store must be a directory/],
    [{ store: 'dir', typedValues: 'no' }, /cache\.typedValues must be true or false/],
    [{ store: 'dir', confirmDone: 1 }, /cache\.confirmDone must be true or false/],
    ['', /the cache directory is empty/],
    [{ store: '  ' }, /the cache directory is empty/],
    [true, /expected false, a directory, a store/],
    [['dir'], /expected false, a directory, a store/],
  ]
  for (const [value, message] of cases) {
    const error = t.throws(() => parseOptions({ cache: value }), { instanceOf: UsageError })
    t.regex(error.message, /^Invalid option "cache" in options: /)
    t.regex(error.message, message)
  }
})

test('the cache option accepts a directory, a store and settings, and keeps one store per directory', (t) => {
  const map = new Map()
  t.like(resolveCache('cache-dir'), { where: 'cache-dir', typedValues: true, confirmDone: true })
  t.is((resolveCache(map) as { store: unknown }).store, map)
  t.like(resolveCache({ store: map, typedValues: false, confirmDone: false }), { where: 'store', typedValues: false, confirmDone: false })
  t.is(resolveCache(false), false)
  t.is((resolveCache('same-dir') as { store: unknown }).store, (resolveCache({ store: 'same-dir' }) as { store: unknown }).store)
  t.deepEqual(parseOptions({ cache: null }), {})
})

test('PUPPETEER_AGENT_CACHE turns the cache on under every layer; an option wins and cache: false turns it off', (t) => {
  const before = process.env[CACHE_ENV]
  t.teardown(() => {
    if (before === undefined) delete process.env[CACHE_ENV]
    else process.env[CACHE_ENV] = before
  })
  delete process.env[CACHE_ENV]
  t.is(mergeSettings().cache, false)
  process.env[CACHE_ENV] = '  '
  t.is(mergeSettings().cache, false, 'a blank variable is unset')
  process.env[CACHE_ENV] = 'from-env'
  t.like(mergeSettings().cache, { where: 'from-env' })
  t.like(mergeSettings(parseOptions({ maxSteps: 5 })).cache, { where: 'from-env' })
  t.like(mergeSettings(parseOptions({ cache: 'from-option' })).cache, { where: 'from-option' })
  t.is(mergeSettings(parseOptions({ cache: 'from-agent' }), parseOptions({ cache: false })).cache, false)
  t.is(mergeSettings(parseOptions({ cache: false })).cache, false)
})

test('a directory store round-trips values in readable JSON, under plain and hashed file names', async (t) => {
  const dir = await temporaryDir(t)
  const store = directoryStore(join(dir, 'created-on-first-write'))
  const key = cacheKey('goal', ['Buy', 'https://shop.test/'])
  const odd = 'goal: Find "x" / https://shop.test/?a=1'
  t.true(await writeEntry(store, key, { steps: [{ operation: 'CLICK' }] }))
  t.true(await writeEntry(store, odd, ['odd']))
  t.deepEqual(await readEntry(store, key), { steps: [{ operation: 'CLICK' }] })
  t.deepEqual(await readEntry(store, odd), ['odd'])
  const files = (await readdir(join(dir, 'created-on-first-write'))).sort()
  t.deepEqual(files, [`${key}.json`, files.find((file) => /^[0-9a-f]{64}\.json$/.test(file))!].sort())
  t.regex(await readFile(join(dir, 'created-on-first-write', `${key}.json`), 'utf8'), /^\{\n {2}"steps": \[/)
  t.is(await readEntry(store, 'missing'), undefined)
})

test('a corrupt entry or a directory that cannot be written is a miss, logged, never a throw', async (t) => {
  const dir = await temporaryDir(t)
  const log = captureLog()
  t.teardown(log.restore)
  await writeFile(join(dir, 'torn.json'), '{"steps": [')
  t.is(await readEntry(directoryStore(dir), 'torn'), undefined)
  // A file where the directory should be: refused even to root, who may write any directory.
  const blocked = directoryStore(join(dir, 'torn.json', 'cache'))
  t.false(await writeEntry(blocked, 'key', { a: 1 }))
  t.is(await readEntry(blocked, 'key'), undefined)
  t.true(log.lines.some((line) => /cache: reading torn failed, going on without it: .*JSON/.test(line)), log.lines.join('\n'))
  t.true(log.lines.some((line) => /cache: writing key failed, the run is not affected: ENOTDIR/.test(line)), log.lines.join('\n'))
})

test('a store that throws, rejects, answers false or never answers is a miss, never a throw', async (t) => {
  const throws = { get: () => { throw new Error('down') }, set: () => { throw new Error('down') } }
  const rejects = { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')) }
  const refuses = { get: async () => null, set: async () => false }
  t.is(await readEntry(throws, 'k'), undefined)
  t.false(await writeEntry(throws, 'k', 1))
  t.is(await readEntry(rejects, 'k'), undefined)
  t.false(await writeEntry(rejects, 'k', 1))
  t.is(await readEntry(refuses, 'k'), undefined)
  t.false(await writeEntry(refuses, 'k', 1))

  const silent = { get: () => new Promise(() => {}), set: () => new Promise(() => {}) }
  const started = Date.now()
  t.deepEqual(await Promise.all([readEntry(silent, 'k'), writeEntry(silent, 'k', 1)]), [undefined, false])
  t.true(Date.now() - started < STORE_TIMEOUT_MS + 1_000)
})

test('many processes writing one directory lose nothing and tear nothing', async (t) => {
  const dir = await temporaryDir(t)
  const writers = ['a', 'b', 'c', 'd']
  const keys = 40
  const children = writers.map((writer) =>
    spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', WRITER, dir, writer, String(keys)], { stdio: ['pipe', 'pipe', 'inherit'] }),
  )
  // Every writer says it is ready before any is told to start, so that their writes overlap.
  const outputs = children.map((child) => {
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    return once(child, 'exit').then(([code]) => ({ code, output }))
  })
  await Promise.all(children.map((child) => once(child.stdout, 'data')))
  for (const child of children) child.stdin.end('go\n')
  // Readers while the writes went on saw the old entry or the new one, never half of one.
  t.deepEqual(await Promise.all(outputs), writers.map(() => ({ code: 0, output: 'ready\n{"torn":0}\n' })))

  const store = directoryStore(dir)
  for (const writer of writers) {
    for (let index = 0; index < keys; index++) t.deepEqual(await store.get(`writer-${writer}-${index}`), valueOf(writer, index))
  }
  const shared = (await store.get('shared')) as ReturnType<typeof valueOf>
  t.deepEqual(shared, valueOf(shared.writer, shared.index))
  const files = await readdir(dir)
  t.deepEqual(files.filter((file) => file.endsWith('.tmp')), [])
  t.is(files.length, writers.length * keys + 1)
})
