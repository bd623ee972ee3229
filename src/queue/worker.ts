// A worker process's loop, on bullmq: take a job, run it on this process's browser, store the result
// as the job's return value. bullmq brings the rest: a lock per job that the worker renews while it
// lives, a stalled check that gives the job of a silent worker to another, retries with backoff, the
// failed set, and a close that lets the jobs in hand finish.
import { hostname } from 'node:os'
import { UnrecoverableError, Worker, type Job } from 'bullmq'
import { log } from '../base/log.ts'
import type { JobResult, RunningWorker, WorkerOptions } from '../../types/queue.d.ts'
import { AttemptLog, earlierAttempts, planAttempt } from './attempt-log.ts'
import { browserSlot } from './browser-slot.ts'
import { JobShapeError, parseJob } from './job-shape.ts'
import { checkQueueName, checkRedisUrl, connectionOptions, pingRedis } from './redis.ts'
import { runJob } from './run-job.ts'
import { wholeNumber } from './whole-number.ts'

const NAVIGATION_TIMEOUT_MS = 30_000
/** Workers started in this process so far: results name each one apart. */
let started = 0

export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const settings = checkWorkerOptions(options)
  started++
  const name = `${hostname()}:${process.pid}${started > 1 ? `/${started}` : ''}`
  const browsers = browserSlot(options.browser)
  await pingRedis(settings.redis)
  // Opened now, so a worker without a browser says so at start, not on its first job.
  await browsers.get()
  const processJob = async (job: Job): Promise<JobResult> => {
    const work = jobOf(job)
    const attempt = job.attemptsStarted
    const earlier = earlierAttempts(job.progress, attempt)
    const plan = planAttempt(attempt, earlier, job.stalledCounter, work.repeatable)
    const log = new AttemptLog(attempt, name, earlier, (progress) => job.updateProgress(progress))
    return runJob(work, {
      browser: await browsers.get(),
      log,
      retried: plan.retried,
      interrupted: plan.interrupted,
      defaults: options.agent ?? {},
      navigationTimeout: NAVIGATION_TIMEOUT_MS,
    })
  }
  const worker = new Worker(settings.queue, processJob, {
    connection: connectionOptions(settings.redis),
    name,
    concurrency: settings.concurrency,
    lockDuration: settings.lockDuration,
    stalledInterval: settings.stalledInterval,
    maxStalledCount: settings.maxStalledCount,
  })
  worker.on('completed', (job, result: JobResult) => options.onJob?.({ id: String(job.id), state: 'completed', result }))
  worker.on('failed', (job, error) => {
    if (!job) return
    const retrying = !(error instanceof UnrecoverableError) && job.attemptsMade < (job.opts.attempts ?? 1)
    options.onJob?.({ id: String(job.id), state: retrying ? 'retrying' : 'failed', error: error.message })
  })
  // Connection trouble: ioredis reconnects by itself, and bullmq goes on once it has.
  worker.on('error', (error) => log('queue: worker %s: %s', name, error.message))
  try {
    await worker.waitUntilReady()
  } catch (error) {
    await worker.close()
    await browsers.close()
    throw error
  }
  return {
    name,
    async close() {
      await worker.close()
      await browsers.close()
    },
  }
}

/** The job's data, checked; a job that cannot run as given fails at once, without retries. */
function jobOf(job: Job): ReturnType<typeof parseJob> {
  try {
    // The id is bullmq's: a job added by another client may have none in its data, or a number.
    const data = typeof job.data === 'object' && job.data !== null && !Array.isArray(job.data) ? { ...job.data, id: undefined } : job.data
    return { ...parseJob(data, `job ${job.id}`), id: String(job.id) }
  } catch (error) {
    if (error instanceof JobShapeError) throw new UnrecoverableError(error.message)
    throw error
  }
}

interface WorkerSettings {
  redis: string
  queue: string
  concurrency: number
  lockDuration: number
  stalledInterval: number
  maxStalledCount: number
}

function checkWorkerOptions(options: WorkerOptions): WorkerSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('startWorker(options) needs an options object.')
  if (typeof options.browser !== 'function') throw new TypeError('startWorker: browser must be a function that opens a Puppeteer Browser.')
  const whole = (name: keyof WorkerOptions, fallback: number, least = 1) => wholeNumber(options[name], fallback, least, `startWorker: ${name}`)
  return {
    redis: checkRedisUrl(options.redis, 'startWorker: redis'),
    queue: checkQueueName(options.queue, 'startWorker: queue'),
    concurrency: whole('concurrency', 1),
    lockDuration: whole('lockDuration', 30_000, 100),
    stalledInterval: whole('stalledInterval', 30_000, 100),
    maxStalledCount: whole('maxStalledCount', 1, 0),
  }
}
