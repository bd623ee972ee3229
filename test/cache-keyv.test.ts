import test from 'ava'
import KeyvRedis from '@keyv/redis'
import { Keyv } from 'keyv'
import { readEntry, STORE_TIMEOUT_MS, writeEntry } from '../src/cache/cache-store.ts'
import { cacheKey } from '../src/cache/page-shape.ts'
import { parseOptions } from '../src/options.ts'
import { captureLog } from './helpers/debug-log.ts'
import { startRedis as startRedisServer, type RedisServer } from './helpers/redis-server.ts'

// A real keyv backend shared by workers: a Redis server from Debian's package, started here.

const servers: RedisServer[] = []
const clients: KeyvRedis<unknown>[] = []

/** A Redis server of this file's own, stopped when the file ends. */
async function startRedis(): Promise<RedisServer> {
  const server = await startRedisServer()
  servers.push(server)
  return server
}

/** A keyv instance on Redis as the README shows it; `options` are KeyvRedis's. */
function keyvOn(connect: ConstructorParameters<typeof KeyvRedis>[0], options?: ConstructorParameters<typeof KeyvRedis>[1]): Keyv {
  const store = new KeyvRedis(connect, options)
  clients.push(store)
  return new Keyv({ store, throwOnErrors: options?.throwOnErrors })
}

let shared: RedisServer
test.before(async () => {
  shared = await startRedis()
})

test.after.always(async () => {
  // Destroyed, not closed: a client whose server is gone would otherwise keep reconnecting.
  await Promise.all(clients.map((client) => client.disconnect(true).catch(() => {})))
  await Promise.all(servers.map((server) => server.stop()))
})

test('a keyv Redis store is a cache store: entries round-trip through readEntry and writeEntry', async (t) => {
  const keyv = keyvOn(shared.url)
  const settings = parseOptions({ cache: keyv }).cache
  t.true(settings !== false && settings?.store === keyv)
  const key = cacheKey('goal', ['Buy the shoes', 'https://shop.test/product/:id'])
  const entry = { steps: [{ operation: 'CLICK', target: { role: 'button', name: 'Add to cart' } }] }
  t.true(await writeEntry(keyv, key, entry))
  t.deepEqual(await readEntry(keyv, key), entry)
  t.is(await readEntry(keyv, cacheKey('goal', ['never written'])), undefined)
})

test('two workers on one Redis share their entries', async (t) => {
  const first = keyvOn(shared.url)
  const second = keyvOn(shared.url)
  const key = cacheKey('rules', ['the price', 'https://shop.test/product/:id'])
  t.true(await writeEntry(first, key, { rules: { price: '.price' } }))
  t.deepEqual(await readEntry(second, key), { rules: { price: '.price' } })
  t.true(await writeEntry(second, key, { rules: { price: '[itemprop=price]' } }))
  t.deepEqual(await readEntry(first, key), { rules: { price: '[itemprop=price]' } })
})

test('when the Redis server stops, reading and writing miss quickly and never throw or hang', async (t) => {
  const log = captureLog()
  t.teardown(log.restore)
  const server = await startRedis()
  // As keyv's docs write it: this client queues commands while it reconnects, and never answers them.
  const plain = keyvOn(server.url)
  // Offline commands fail at once, a first connection gives up after 500 ms, errors reach readEntry.
  const failFast = keyvOn({ url: server.url, disableOfflineQueue: true }, { connectionTimeout: 500, throwOnErrors: true })
  t.true(await writeEntry(plain, 'plain', 1))
  t.true(await writeEntry(failFast, 'fast', 1))
  // Once the plain client has seen the connection go, it queues commands: without that wait, a
  // command it sent before is refused and keyv, not throwing by default, answers a set as done.
  const lost = new Promise((resolve) => plain.once('error', resolve))
  await server.stop()
  await lost

  const started = Date.now()
  t.deepEqual(await Promise.all([readEntry(plain, 'plain'), writeEntry(plain, 'plain', 2)]), [undefined, false])
  t.true(Date.now() - started < STORE_TIMEOUT_MS + 1_000, 'bounded by STORE_TIMEOUT_MS')
  t.true(log.lines.some((line) => line.includes(`cache: writing plain failed, the run is not affected: the store did not answer within ${STORE_TIMEOUT_MS} ms`)), log.lines.join('\n'))

  const fast = Date.now()
  t.deepEqual(await Promise.all([readEntry(failFast, 'fast'), writeEntry(failFast, 'fast', 2)]), [undefined, false])
  t.true(Date.now() - fast < 500, `${Date.now() - fast} ms`)
  t.true(log.lines.some((line) => /cache: writing fast failed, the run is not affected: The client is offline/.test(line)), log.lines.join('\n'))

  // A worker that starts while the server is down.
  const late = keyvOn({ url: server.url, disableOfflineQueue: true }, { connectionTimeout: 500, throwOnErrors: true })
  const first = Date.now()
  t.deepEqual(await Promise.all([readEntry(late, 'k'), writeEntry(late, 'k', 2)]), [undefined, false])
  t.true(Date.now() - first < 1_500, `${Date.now() - first} ms`)
})
