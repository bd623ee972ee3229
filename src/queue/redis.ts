// The Redis clients of the queue and of the shared replay cache. bullmq's workers block on Redis and
// must never give up a command (it would drop a job's move); the cache must give up at once when
// Redis is away, so an agent call goes on with the model instead of waiting (docs/replay-cache.md, "Sharing a store").
import KeyvRedis from '@keyv/redis'
import type { ConnectionOptions } from 'bullmq'
import { Redis } from 'ioredis'
import { Keyv } from 'keyv'

export const DEFAULT_QUEUE = 'puppeteer-agent'
/** The prefix of the cache's keys, apart from bullmq's `bull:`. */
const CACHE_NAMESPACE = 'puppeteer-agent-cache'

/** Throws naming the value when it is no redis:// or rediss:// URL. */
export function checkRedisUrl(url: unknown, what = 'redis'): string {
  if (typeof url !== 'string' || !/^rediss?:\/\/\S+$/.test(url.trim())) {
    throw new TypeError(`${what} must be a redis:// or rediss:// URL, got ${JSON.stringify(url)}.`)
  }
  return url.trim()
}

/** The queue's name, `'puppeteer-agent'` when none is given; throws naming a bad one. */
export function checkQueueName(name: unknown, what = 'queue'): string {
  const queue = name ?? DEFAULT_QUEUE
  if (typeof queue !== 'string' || !/^[A-Za-z0-9._-]{1,100}$/.test(queue)) {
    throw new TypeError(`${what} must be a name of letters, digits, ".", "-" or "_", got ${JSON.stringify(queue)}.`)
  }
  return queue
}

/**
 * bullmq's connection options for `url`: bullmq makes its own clients from them and closes them with
 * the queue or worker. Commands wait through a reconnect rather than fail (bullmq requires it of workers).
 */
export function connectionOptions(url: string): ConnectionOptions {
  const parsed = new URL(url)
  const db = parsed.pathname.replace(/^\//, '')
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
    ...(db && { db: Number(db) }),
    ...(parsed.protocol === 'rediss:' && { tls: {} }),
    maxRetriesPerRequest: null,
  }
}

/** Checks Redis answers within 5 s, with the URL in the error when it does not. */
export async function pingRedis(url: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 0, connectTimeout: 5_000, retryStrategy: () => null, lazyConnect: true })
  // The socket's own error (ECONNREFUSED, ENOTFOUND) says more than the client's "Connection is closed".
  let cause: Error | undefined
  client.on('error', (error: Error) => (cause ??= error))
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    throw new Error(`Redis at ${url} does not answer: ${(cause ?? (error as Error)).message.replace(/\.$/, '')}.`)
  } finally {
    client.disconnect()
  }
}

/** A replay cache on Redis that fails fast, as docs/replay-cache.md ("Sharing a store") sets it up. */
export function redisCache(url: string): Keyv {
  const store = new KeyvRedis({ url, disableOfflineQueue: true }, { connectionTimeout: 500, throwOnErrors: true })
  return new Keyv({ store, namespace: CACHE_NAMESPACE, throwOnErrors: true })
}
