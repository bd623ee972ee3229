import type { CacheStore } from '../../types/index.d.ts'
import { directoryStore, isCacheStore } from './cache-store.ts'

/** The `cache` option, resolved. */
export interface CacheSettings {
  store: CacheStore
  /** Where entries are, for debug lines: the directory, or `store`. */
  where: string
  typedValues: boolean
  confirmDone: boolean
}

/** The environment variable that turns the cache on for every run that does not say otherwise (`puppeteer-agent --cache`). */
export const CACHE_ENV = 'PUPPETEER_AGENT_CACHE'

// One store per directory, so that runs in one process share it.
const directories = new Map<string, CacheStore>()

function storeIn(dir: string): CacheStore {
  let store = directories.get(dir)
  if (!store) directories.set(dir, (store = directoryStore(dir)))
  return store
}

/**
 * The `cache` option as settings: a directory, a store, or `{ store, typedValues, confirmDone }`.
 * Throws an Error saying what was wrong with the value.
 */
export function resolveCache(value: unknown): CacheSettings | false {
  if (value === false) return false
  if (typeof value === 'string') return fromStore(value, {})
  if (isCacheStore(value)) return fromStore(value, {})
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const { store, typedValues, confirmDone, ...rest } = value as Record<string, unknown>
    const unknown = Object.keys(rest)
    if (unknown.length > 0) throw new Error(`unknown cache setting "${unknown[0]}" (known: store, typedValues, confirmDone)`)
    if (typeof store !== 'string' && !isCacheStore(store)) throw new Error('cache.store must be a directory or an object with get(key) and set(key, value)')
    if (typedValues !== undefined && typeof typedValues !== 'boolean') throw new Error('cache.typedValues must be true or false')
    if (confirmDone !== undefined && typeof confirmDone !== 'boolean') throw new Error('cache.confirmDone must be true or false')
    return fromStore(store, { typedValues, confirmDone })
  }
  throw new Error('expected false, a directory, a store with get(key) and set(key, value), or { store, typedValues, confirmDone }')
}

function fromStore(store: string | CacheStore, flags: { typedValues?: boolean; confirmDone?: boolean }): CacheSettings {
  if (typeof store === 'string' && store.trim() === '') throw new Error('the cache directory is empty')
  return {
    store: typeof store === 'string' ? storeIn(store) : store,
    where: typeof store === 'string' ? store : 'store',
    typedValues: flags.typedValues ?? true,
    confirmDone: flags.confirmDone ?? true,
  }
}

/** The cache the environment turns on, when the options leave it unset. */
export function cacheFromEnvironment(env: NodeJS.ProcessEnv = process.env): CacheSettings | false {
  // Blank is unset, as `PUPPETEER_AGENT_CACHE= cmd` means: it must not make every run throw.
  const dir = env[CACHE_ENV]?.trim()
  return dir ? fromStore(dir, {}) : false
}
