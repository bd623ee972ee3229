// What the queue promises about each job: one job per id, a retry after a worker dies that repeats a
// goal only when the job says it may, retries with backoff that end in the failed set, a job of the
// wrong shape failed at once, SIGTERM that finishes the job in hand, and one cache for all workers.
import test from 'ava'
import { Queue, QueueEvents } from 'bullmq'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobProgress, JobResult, ProducedResult } from '../types/queue.d.ts'
import { produce, startWorker } from '../src/queue/index.ts'
import { redisCache } from '../src/queue/redis.ts'
import { launchChrome } from './helpers/chrome.ts'
import { startRedis, type RedisServer } from './helpers/redis-server.ts'
import { ITEM_RULES, startQueueSite, type QueueSite } from './fixtures/queue-site.ts'
import { startCli, startWorkerProcess, type CliProcess } from './fixtures/queue-workers.ts'

const LOCAL = { decisions: 'local', text: 'local', evaluator: 'local' }
const FAST_LOCKS = ['--lock-duration=2000', '--stalled-interval=1000']

let redis: RedisServer
let site: QueueSite
const closers: (() => Promise<unknown>)[] = []
const children: CliProcess[] = []
test.before(async () => {
  redis = await startRedis()
  site = await startQueueSite()
})
test.after.always(async () => {
  // Worker processes first: an in-process worker's close waits for its jobs, and may wait long.
  for (const child of children) child.child.kill('SIGKILL')
  for (const close of closers.reverse()) await close().catch(() => {})
  await site?.close()
  await redis?.stop()
})

const port = () => Number(new URL(redis.url).port)
function queueNamed(name: string): Queue {
  const queue = new Queue(name, { connection: { host: '127.0.0.1', port: port() } })
  closers.push(() => queue.close())
  return queue
}
function processes(...started: CliProcess[]): void {
  children.push(...started)
}
async function inProcessWorker(queue: string, options: Partial<Parameters<typeof startWorker>[0]> = {}) {
  const worker = await startWorker({ redis: redis.url, queue, browser: launchChrome, ...options })
  closers.push(() => worker.close())
  return worker
}
const completed = (result: ProducedResult | undefined): JobResult => {
  if (result?.state !== 'completed') throw new Error(`not completed: ${JSON.stringify(result)}`)
  return result.result
}

test.serial('a repeatable job whose worker died mid-goal runs its goals again on another worker, and says it is a retry', async (t) => {
  const queue = 'repeat'
  const posted = site.hold('/callback/2')
  const first = await startWorkerProcess(redis.url, [`--queue=${queue}`, ...FAST_LOCKS])
  processes(first)
  const produced = produce({
    redis: redis.url,
    queue,
    jobs: [{ id: 'callback-2', url: `${site.url}/form/2`, goals: ['Click "Request a callback"'], options: LOCAL, repeatable: true }],
  })
  await posted.arrived
  first.child.kill('SIGKILL')
  await first.exited
  posted.release()
  const second = await startWorkerProcess(redis.url, [`--queue=${queue}`, ...FAST_LOCKS])
  processes(second)
  const result = completed((await produced).results[0])
  t.like(result, { status: 'success', attempt: 2, worker: second.name, retried: { attempt: 2, after: 'stalled' } })
  t.like(result.retried?.earlierProgress, [{ attempt: 1, worker: first.name, stage: 'goal', goals: [{ index: 0, state: 'started' }] }])
  t.like(result.goals, [{ goal: 'Click "Request a callback"', status: 'success' }])
  t.is(site.count('/callback/2'), 2, 'repeatable: the form was posted again')
})

test.serial('SIGTERM lets a worker finish the job in hand and take no other, then it exits 0', async (t) => {
  const queue = 'sigterm'
  const loading = site.hold('/hold/1')
  const worker = await startWorkerProcess(redis.url, [`--queue=${queue}`, '--concurrency=1'])
  processes(worker)
  const produced = produce({
    redis: redis.url,
    queue,
    jobs: [{ id: 'held', url: `${site.url}/hold/1`, extract: { rules: ITEM_RULES } }],
  })
  await loading.arrived
  worker.child.kill('SIGTERM')
  await worker.waitFor(/SIGTERM: finishing the jobs in hand/)
  // Added after the signal: a worker that is stopping takes no new job.
  await produce({ redis: redis.url, queue, wait: false, jobs: [{ id: 'after', url: `${site.url}/item/2`, extract: { rules: ITEM_RULES } }] })
  loading.release()
  t.like(completed((await produced).results[0]), { status: 'success', attempt: 1, extract: { data: { name: 'Item 1', price: 1.9 } } })
  t.like(await worker.exited, { code: 0 })
  t.regex(worker.stderr, /stopped\.\n$/)
  t.is(await queueNamed(queue).getJobState('after'), 'waiting')
})

test.serial('a job that keeps failing is retried with backoff and ends in the failed set with its error', async (t) => {
  const queue = 'failing'
  const closed = await closedPort()
  await inProcessWorker(queue)
  const url = `http://127.0.0.1:${closed}/item/1`
  const { results } = await produce({ redis: redis.url, queue, attempts: 3, backoffMs: 50, jobs: [{ id: 'down', url, extract: { rules: ITEM_RULES } }] })
  t.like(results[0], { id: 'down', state: 'failed', attempts: 3 })
  t.regex((results[0] as { error: string }).error, new RegExp(`^Loading ${url} failed: net::ERR_CONNECTION_REFUSED`))
  const job = (await queueNamed(queue).getJob('down'))!
  t.is(await job.getState(), 'failed')
  const { attempts } = job.progress as JobProgress
  t.deepEqual(
    attempts.map((record) => [record.attempt, record.stage]),
    [
      [1, 'failed'],
      [2, 'failed'],
      [3, 'failed'],
    ],
  )
})

test.serial('produce from the CLI exits 1 when a job ended in the failed set, and 2 naming a bad line before enqueueing any', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'produce-cli-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = join(dir, 'jobs.jsonl')
  // The job of the test before, ended in the failed set: produced again, it is not added but reported.
  const url = `http://127.0.0.1:${await closedPort()}/item/1`
  await writeFile(file, `${JSON.stringify({ id: 'down', url, extract: { rules: ITEM_RULES } })}\n`)
  const failed = startCli(['produce', file, `--redis=${redis.url}`, '--queue=failing'])
  t.like(await failed.exited, { code: 1 })
  t.like(JSON.parse(failed.stdout), { id: 'down', state: 'failed', attempts: 3 })
  t.regex(failed.stderr, /1\/1 ended \(0 completed, 1 failed\), 0 running, 1 were queued before/)

  await writeFile(file, `${JSON.stringify({ id: 'fine', url: `${site.url}/item/1`, extract: { rules: ITEM_RULES } })}\n{"url":"${site.url}/item/2","goals":[]}\n`)
  const bad = startCli(['produce', file, `--redis=${redis.url}`, '--queue=bad-file'])
  t.like(await bad.exited, { code: 2 })
  t.regex(bad.stderr, /jobs\.jsonl line 2 for \S+ has nothing to do/)
  t.deepEqual(await queueNamed('bad-file').getJobCounts('wait'), { wait: 0 })
})

test.serial('a job of the wrong shape fails at once, not retried, with an error naming the field', async (t) => {
  const queue = 'shape'
  await inProcessWorker(queue)
  const raw = queueNamed(queue)
  const listener = new QueueEvents(queue, { connection: { host: '127.0.0.1', port: port() } })
  closers.push(() => listener.close())
  await listener.waitUntilReady()
  // Written by some other client straight into Redis: the worker checks it as it would any job.
  const hostile = [
    await raw.add('job', { url: 'javascript:alert(1)', extract: { rules: ITEM_RULES } }, { jobId: 'script-url', attempts: 5 }),
    await raw.add('job', { url: `${site.url}/item/1`, goals: ['Buy it'], options: { approve: 'always' } }, { jobId: 'approve', attempts: 5 }),
  ]
  const ends = await Promise.all(hostile.map((job) => job.waitUntilFinished(listener).catch((error: Error) => error.message)))
  t.deepEqual(ends, [
    'job script-url: url must be http or https, got "javascript:alert(1)".',
    'job approve: options.approve cannot come from a job; it is set in nowhere: a job is data, and a function is code.',
  ])
  for (const id of ['script-url', 'approve']) t.like(await raw.getJob(id), { attemptsMade: 1 })
  t.is(site.count('/item/1'), 0)
})

test.serial('a job id enqueued twice is one job: the second producer gets the first one\'s result', async (t) => {
  const queue = 'idempotent'
  await inProcessWorker(queue)
  const jobs = [{ id: 'once', url: `${site.url}/item/3`, extract: { rules: ITEM_RULES } }]
  const first = await produce({ redis: redis.url, queue, jobs: [...jobs, ...jobs] })
  const second = await produce({ redis: redis.url, queue, jobs })
  t.is(first.results.length, 1)
  t.like(first.progress, { total: 1, completed: 1, existing: 0 })
  t.like(second.progress, { total: 1, completed: 1, existing: 1 })
  t.deepEqual(second.results, first.results)
  t.is(site.count('/item/3'), 1)
  t.deepEqual(await queueNamed(queue).getJobCounts('completed', 'wait', 'active'), { completed: 1, wait: 0, active: 0 })
})

test.serial('a goal one worker learned is replayed from the shared Redis cache by another', async (t) => {
  const queue = 'shared-cache'
  // A goal no other test gives: its cache entry is written here first.
  const job = (n: number) => ({ id: `form-${n}`, url: `${site.url}/form/${n}`, goals: ['Click "Request a callback" on the contact page'], options: LOCAL })
  const firstCache = redisCache(redis.url)
  const learner = await inProcessWorker(queue, { agent: { cache: firstCache } })
  const learned = completed((await produce({ redis: redis.url, queue, jobs: [job(3)] })).results[0])
  await learner.close()
  await firstCache.disconnect()
  const otherCache = redisCache(redis.url)
  closers.push(() => otherCache.disconnect())
  await inProcessWorker(queue, { agent: { cache: otherCache } })
  const replayed = completed((await produce({ redis: redis.url, queue, jobs: [job(4)] })).results[0])
  t.like(learned.goals[0], { status: 'success' })
  t.false(learned.goals[0]!.trace.some((entry) => entry.cached))
  t.like(replayed.goals[0], { status: 'success', trace: [{ operation: 'CLICK', cached: true }] })
})

async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const { port: free } = probe.address() as AddressInfo
  await new Promise((resolve) => probe.close(resolve))
  return free
}
