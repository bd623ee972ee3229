// The producer's side: check every job, enqueue each under its id (bullmq adds nothing for an id it
// holds already, so a producer run twice makes no second job), then collect each job's end from the
// queue's events: its result when it completed, its error when it ended in the failed set.
import { Queue, QueueEvents, type Job } from 'bullmq'
import type { JobResult, ProduceOptions, Produced, WorkJob } from '../../types/queue.d.ts'
import { parseJob } from './job-shape.ts'
import { checkQueueName, checkRedisUrl, connectionOptions, pingRedis } from './redis.ts'
import { ResultTracker } from './result-tracker.ts'
import { wholeNumber } from './whole-number.ts'

/** Jobs looked up or added at once. */
const BATCH = 50
/** Pending jobs are looked up again after this long without an event: an event lost in a reconnect costs a wait, not the job. */
const RECONCILE_MS = 10_000

export async function produce(options: ProduceOptions): Promise<Produced> {
  const settings = checkProduceOptions(options)
  const jobs = distinct(options.jobs.map((input, index) => parseJob(input, `jobs[${index}]`)))
  await pingRedis(settings.redis)
  const connection = connectionOptions(settings.redis)
  const queue = new Queue(settings.queue, { connection })
  const events = settings.wait ? new QueueEvents(settings.queue, { connection }) : undefined
  const tracker = new ResultTracker(
    jobs.map((job) => job.id),
    options.onProgress,
  )
  try {
    if (events) {
      // Listening before the first job is added: no end can come before the producer hears of it.
      events.on('active', ({ jobId }) => tracker.active(jobId))
      events.on('completed', ({ jobId, returnvalue }) => tracker.completed(jobId, returnvalue as unknown as JobResult))
      events.on('failed', ({ jobId }) => void settleFrom(queue, tracker, jobId))
      await events.waitUntilReady()
    }
    for (let start = 0; start < jobs.length; start += BATCH) {
      await Promise.all(jobs.slice(start, start + BATCH).map((job) => enqueue(queue, tracker, job, settings)))
    }
    if (!events) return { results: [], progress: tracker.progress }
    while (!(await tracker.settledWithin(RECONCILE_MS))) {
      await Promise.all(tracker.pending().map((id) => settleFrom(queue, tracker, id)))
    }
    return { results: tracker.results(), progress: tracker.progress }
  } finally {
    await events?.close()
    await queue.close()
  }
}

async function enqueue(queue: Queue, tracker: ResultTracker, job: WorkJob, settings: ProduceSettings): Promise<void> {
  const existing = await queue.getJob(job.id)
  if (existing) {
    tracker.existing()
    await settle(tracker, existing)
    return
  }
  const { id, ...data } = job
  await queue.add('job', data, { jobId: id, attempts: settings.attempts, backoff: { type: 'exponential', delay: settings.backoffMs } })
}

/** Reads the job's state and settles it in the tracker when it has ended. */
async function settleFrom(queue: Queue, tracker: ResultTracker, id: string): Promise<void> {
  const job = await queue.getJob(id)
  if (job) await settle(tracker, job)
}

async function settle(tracker: ResultTracker, job: Job): Promise<void> {
  const state = await job.getState()
  if (state === 'completed') tracker.completed(String(job.id), job.returnvalue as JobResult)
  else if (state === 'failed') tracker.failed(String(job.id), job.failedReason, job.attemptsMade)
}

/** The same id twice is one job, as it is in the queue. */
function distinct(jobs: WorkJob[]): WorkJob[] {
  return [...new Map(jobs.map((job) => [job.id, job])).values()]
}

interface ProduceSettings {
  redis: string
  queue: string
  attempts: number
  backoffMs: number
  wait: boolean
}

function checkProduceOptions(options: ProduceOptions): ProduceSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('produce(options) needs an options object.')
  if (!Array.isArray(options.jobs)) throw new TypeError(`produce: jobs must be a list of jobs, got ${typeof options.jobs}.`)
  const whole = (name: 'attempts' | 'backoffMs', fallback: number, least: number) => wholeNumber(options[name], fallback, least, `produce: ${name}`)
  return {
    redis: checkRedisUrl(options.redis, 'produce: redis'),
    queue: checkQueueName(options.queue, 'produce: queue'),
    attempts: whole('attempts', 3, 1),
    backoffMs: whole('backoffMs', 1_000, 0),
    wait: options.wait ?? true,
  }
}
