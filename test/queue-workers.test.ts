// The queue as it runs past one machine, on this one: Redis, three worker processes and a producer
// process, 200 jobs on a local site. One worker is killed with SIGKILL in the middle of a goal that
// has just sent a form, and started again. Every job ends exactly once, and the killed job's retry
// says what the earlier attempt reached instead of sending the form a second time.
import test from 'ava'
import { Queue } from 'bullmq'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { JobProgress, ProducedResult } from '../types/queue.d.ts'
import { startRedis } from './helpers/redis-server.ts'
import { ITEM_RULES, item, startQueueSite } from './fixtures/queue-site.ts'
import { startCli, startWorkerProcess, type CliProcess } from './fixtures/queue-workers.ts'

const LOCAL = { decisions: 'local', text: 'local', evaluator: 'local' }
// Short locks: a killed worker's job goes to another within about 3 s.
const WORKER_FLAGS = ['--concurrency=2', '--lock-duration=2000', '--stalled-interval=1000']
const ITEMS = 199

test('200 jobs on three workers, one killed mid-goal and started again: each job ends once, and the retry is on record', async (t) => {
  // Three workers with a Chrome each and 200 jobs: about a minute alone, far more beside other test files.
  t.timeout(300_000)
  const redis = await startRedis()
  const site = await startQueueSite()
  const dir = await mkdtemp(join(tmpdir(), 'queue-workers-'))
  const queue = new Queue('puppeteer-agent', { connection: { host: '127.0.0.1', port: Number(new URL(redis.url).port) } })
  const processes: CliProcess[] = []
  t.teardown(async () => {
    for (const started of processes) started.child.kill('SIGKILL')
    await queue.close()
    await site.close()
    await redis.stop()
    await rm(dir, { recursive: true, force: true })
  })

  // The job to kill: its goal clicks a button that posts a form; the post is held until the worker is dead.
  const posted = site.hold('/callback/1')
  const jobs = [
    { id: 'callback-1', url: `${site.url}/form/1`, goals: ['Click "Request a callback"'], options: LOCAL },
    ...Array.from({ length: ITEMS }, (_, n) => ({ id: `item-${n}`, url: `${site.url}/item/${n}`, extract: { rules: ITEM_RULES } })),
  ]
  const jobsFile = join(dir, 'jobs.jsonl')
  await writeFile(jobsFile, jobs.map((job) => JSON.stringify(job)).join('\n'))

  const workers = await Promise.all([0, 1, 2].map(() => startWorkerProcess(redis.url, WORKER_FLAGS)))
  processes.push(...workers)
  const resultsFile = join(dir, 'results.jsonl')
  const producer = startCli(['produce', jobsFile, `--redis=${redis.url}`, `--out=${resultsFile}`, '--backoff=100'])
  processes.push(producer)

  await posted.arrived
  const progress = (await queue.getJob('callback-1'))!.progress as JobProgress
  const killed = workers.find((worker) => worker.name === progress.attempts.at(-1)!.worker)!
  t.truthy(killed, `the job's progress names its worker: ${JSON.stringify(progress)}`)
  killed.child.kill('SIGKILL')
  await killed.exited
  posted.release()
  const restarted = await startWorkerProcess(redis.url, WORKER_FLAGS)
  processes.push(restarted)

  const { code } = await producer.exited
  t.is(code, 0, producer.stderr)
  const results = (await readFile(resultsFile, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as ProducedResult)

  // 0 lost, 0 duplicated: one result per job, and the workers' logs have each job completed once in all.
  const ids = jobs.map((job) => job.id)
  t.deepEqual(results.map((result) => result.id).sort(), [...ids].sort())
  const completions = [...workers, restarted].flatMap((worker) => [...worker.stderr.matchAll(/^job (\S+) completed/gm)].map((match) => match[1]!))
  t.is(new Set(completions).size, completions.length, `a job logged as completed twice: ${completions.sort().join(', ')}`)
  t.deepEqual(completions.filter((id) => !ids.includes(id)), [])
  // A worker logs a completion once Redis has it (BullMQ's event): the killed worker may have completed
  // a job and died before its line was written. Any other job missing from the logs was lost.
  const ranOn = new Map(results.map((result) => [result.id, result.state === 'completed' ? result.result.worker : undefined]))
  const unlogged = ids.filter((id) => !completions.includes(id))
  t.deepEqual(unlogged.filter((id) => ranOn.get(id) !== killed.name), [], 'a job neither logged nor completed by the killed worker')
  t.deepEqual(await queue.getJobCounts('completed', 'failed', 'active', 'wait', 'delayed'), { completed: 200, failed: 0, active: 0, wait: 0, delayed: 0 })
  t.regex(restarted.stderr, /^job \S+ completed/m, 'the restarted worker took jobs')

  for (const result of results) {
    if (result.state !== 'completed') return t.fail(`${result.id} failed: ${JSON.stringify(result)}`)
    if (!result.id.startsWith('item-')) continue
    t.deepEqual(result.result.extract?.data, item(Number(result.id.slice(5))), result.id)
  }

  // The killed job: its retry ran on another worker, saw that the goal had started, and did not act again.
  const callback = results.find((result) => result.id === 'callback-1')!
  if (callback.state !== 'completed') return t.fail(JSON.stringify(callback))
  t.like(callback.result, { status: 'error', failure: 'interrupted', attempt: 2, goals: [], retried: { attempt: 2, after: 'stalled' } })
  t.not(callback.result.worker, killed.name)
  t.like(callback.result.retried?.earlierProgress, [{ attempt: 1, worker: killed.name, stage: 'goal', goals: [{ index: 0, state: 'started' }] }])
  t.regex(callback.result.error!, /Attempt 1 \(worker \S+\) had started goals\[0\] and then stopped answering/)
  t.is(site.count('/callback/1'), 1, 'the form was posted once')
  // Any other job the killed worker held was run again from the start: an extraction does not act.
  for (const result of results) {
    if (result.state !== 'completed' || !result.result.retried || result.id === 'callback-1') continue
    t.like(result.result, { status: 'success', retried: { after: 'stalled', earlierProgress: [{ worker: killed.name }] } })
  }
})
