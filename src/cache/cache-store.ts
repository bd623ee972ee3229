import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { CacheStore } from '../../types/index.d.ts'
import { within } from '../base/deadline.ts'
import { log } from '../base/log.ts'

// Where replay entries live: a directory of JSON files, or any store with async get/set (a keyv
// instance). Reading and writing never fail a run: a store that throws or an entry that does not
// parse is a miss, and a debug line says why.

/** A file name is the key when it is this tame; any other key is hashed. */
const PLAIN_KEY = /^[\w.-]{1,120}$/

/**
 * Bytes of an entry file. The largest entry a run writes (60 steps, each at its bounds in
 * src/cache/goal-entry.ts; or rules a model wrote) is far smaller: a larger file was edited by
 * hand or by something else, and is refused before it is parsed, which would hold the event loop.
 */
export const MAX_ENTRY_BYTES = 2_097_152

/**
 * One JSON file per key in `dir`, created when first written. A write goes to a file of its own
 * and is renamed over the entry, so readers see the old entry or the new one, never half of one,
 * and of two writers of one key the later rename wins whole.
 */
export function directoryStore(dir: string): CacheStore {
  const root = resolve(dir)
  const fileOf = (key: string) => join(root, `${PLAIN_KEY.test(key) ? key : createHash('sha256').update(key).digest('hex')}.json`)
  return {
    async get(key) {
      const file = fileOf(key)
      let handle
      try {
        handle = await open(file, 'r')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
        throw error
      }
      try {
        // The size of the file opened, not of whatever a writer renames over it meanwhile.
        const { size } = await handle.stat()
        if (size > MAX_ENTRY_BYTES) {
          throw new Error(`${file} is ${size.toLocaleString('en')} bytes, over the ${MAX_ENTRY_BYTES.toLocaleString('en')} an entry may take`)
        }
        return JSON.parse(await handle.readFile('utf8'))
      } finally {
        await handle.close()
      }
    },
    async set(key, value) {
      await mkdir(root, { recursive: true })
      const file = fileOf(key)
      const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
      try {
        await writeFile(temporary, `${JSON.stringify(value, null, 2)}\n`)
        await rename(temporary, file)
      } catch (error) {
        await rm(temporary, { force: true })
        throw error
      }
    },
  }
}

export function isCacheStore(value: unknown): value is CacheStore {
  if (typeof value !== 'object' || value === null) return false
  const store = value as Record<string, unknown>
  return typeof store.get === 'function' && typeof store.set === 'function'
}

/**
 * How long a store may take to answer before the run goes on without it. A keyv Redis store whose
 * server has gone away queues every command while it reconnects and, with its default options,
 * never answers (test/cache-keyv.test.ts): a run must not wait on it.
 */
export const STORE_TIMEOUT_MS = 2_000

/** The stored value of `key`, or undefined when there is none or it cannot be read (logged). */
export async function readEntry(store: CacheStore, key: string): Promise<unknown> {
  try {
    return (await answerOf(() => store.get(key))) ?? undefined
  } catch (error) {
    log('cache: reading %s failed, going on without it: %s', key, messageOf(error))
    return undefined
  }
}

/** Stores `value` under `key`; a failure is logged and otherwise ignored. */
export async function writeEntry(store: CacheStore, key: string, value: unknown): Promise<boolean> {
  try {
    // keyv does not throw by default: its set answers false when the value was not stored.
    if ((await answerOf(() => store.set(key, value))) === false) throw new Error('the store answered that it did not store it')
    return true
  } catch (error) {
    log('cache: writing %s failed, the run is not affected: %s', key, messageOf(error))
    return false
  }
}

/** What `call` returns or resolves to; rejects when it throws or takes longer than STORE_TIMEOUT_MS. */
function answerOf(call: () => unknown): Promise<unknown> {
  return within(Promise.resolve().then(call), STORE_TIMEOUT_MS, () => new Error(`the store did not answer within ${STORE_TIMEOUT_MS} ms`))
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
