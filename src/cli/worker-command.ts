// `puppeteer-agent worker`: one worker process on the queue until a signal. The first SIGTERM (or
// Ctrl-C) stops it taking jobs and lets the ones in hand finish; a second one ends it at once, and
// the jobs it held go to another worker once their locks expire.
import { constants } from 'node:os'
import { resolve } from 'node:path'
import type { Keyv } from 'keyv'
import type { AgentOptions } from '../../types/index.d.ts'
import { redisCache } from '../queue/redis.ts'
import { startWorker } from '../queue/worker.ts'
import { toError } from '../errors.ts'
import { CliError, EXIT } from './cli-error.ts'
import type { ExecIO } from './exec.ts'
import type { WorkerArgs } from './parse-queue-args.ts'
import { workerBrowser } from './worker-browser.ts'

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const

export async function runWorker(args: WorkerArgs, io: ExecIO): Promise<number> {
  const browser = workerBrowser({ headless: args.headless, wsEndpoint: args.wsEndpoint, env: io.env })
  const cache = cacheOf(args)
  const agentOptions: AgentOptions = { cache: cache ?? false, ...(args.record !== undefined && { record: args.record && resolve(args.record) }) }
  const stopCache = () => (typeof cache === 'object' ? cache.disconnect().catch(() => {}) : undefined)
  let worker: Awaited<ReturnType<typeof startWorker>>
  try {
    worker = await startWorker({
      redis: args.redis,
      queue: args.queue,
      browser,
      concurrency: args.concurrency,
      agent: agentOptions,
      lockDuration: args.lockDuration,
      stalledInterval: args.stalledInterval,
      maxStalledCount: args.maxStalled,
      onJob: (event) => void io.writeError(`job ${event.id} ${describe(event)}\n`),
    })
  } catch (thrown) {
    await stopCache()
    const error = toError(thrown)
    throw error instanceof CliError ? error : new CliError(error.message, EXIT.usage)
  }
  const where = args.wsEndpoint ? `the browser at ${args.wsEndpoint}` : 'its own Chrome'
  const cacheText = cache === undefined ? 'no cache' : `cache ${typeof cache === 'string' ? cache : 'in Redis'}`
  await io.writeError(`worker ${worker.name}: ready on queue "${args.queue ?? 'puppeteer-agent'}" at ${args.redis}, ${args.concurrency} at a time, on ${where}, ${cacheText}.\n`)
  const signal = await firstSignal(io)
  await io.writeError(`worker ${worker.name}: ${signal}: finishing the jobs in hand, taking no new ones (send it again to stop at once).\n`)
  await worker.close()
  await stopCache()
  await io.writeError(`worker ${worker.name}: stopped.\n`)
  return EXIT.ok
}

/** The cache every job's agent uses: the queue's Redis unless told otherwise. */
function cacheOf(args: WorkerArgs): Keyv | string | undefined {
  if (args.cache === false) return undefined
  if (args.cache === undefined) return redisCache(args.redis)
  return /^rediss?:\/\//.test(args.cache) ? redisCache(args.cache) : resolve(args.cache)
}

function describe(event: { state: string; result?: { status: string; error?: string; retried?: { after: string } }; error?: string }): string {
  if (event.state !== 'completed') return `${event.state}: ${event.error}`
  const retried = event.result?.retried ? ` (a retry after the attempt before ${event.result.retried.after === 'stalled' ? 'stalled' : 'failed'})` : ''
  return `completed, ${event.result?.status}${event.result?.error ? `: ${event.result.error}` : ''}${retried}`
}

/** Resolves the first signal; a second one ends the process at once. */
function firstSignal(io: ExecIO): Promise<(typeof SIGNALS)[number]> {
  return new Promise((resolveSignal) => {
    let received = false
    for (const signal of SIGNALS) {
      process.on(signal, () => {
        if (received) io.exit(128 + constants.signals[signal])
        received = true
        resolveSignal(signal)
      })
    }
  })
}
