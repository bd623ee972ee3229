// npm run bench:workers -- [--jobs=120] [--workers=1,2,3] [--runs=2] [--concurrency=2]
// Workers on a Redis job queue (issue 29), measured on this machine: a redis-server of its own
// (Debian's), the generated shop of the Crawlee example on 127.0.0.1, and for each level N worker
// processes (`puppeteer-agent worker`, the built CLI: build first), each with its own Chrome and
// `--concurrency` jobs at once, sharing the replay cache in the same Redis. The producer (this process,
// `produce()`) enqueues `--jobs` jobs and waits for every one to end: a category page's sort goal on
// the offline local models (replayed from the cache, learned by a warm-up before the first level)
// with its cheapest price read, and product pages extracted with complete rules (no model).
//
// Printed per level: pages per minute (jobs over the wall time from the first enqueue to the last end,
// worker start-up not included; the median of `--runs` runs, and each run), the median job's time in
// its worker, the cores the worker processes and their Chromes used over the run (their process trees
// in /proc), the machine's cores busy (/proc/stat: anything else running counts too: compare the two),
// and jobs that failed or read wrong data. On a machine with fewer cores than
// workers the figure says how the queue shares a CPU that is already full, not how it scales out.
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import type { ProducedResult } from '../types/queue.d.ts'
import { produce } from '../src/queue/index.ts'
import { startRedis } from '../test/helpers/redis-server.ts'
import { startWorkerProcess } from '../test/fixtures/queue-workers.ts'
import { integerFlag, listFlag, parseFlags, FlagError } from './common/flags.ts'
import { progress } from './common/progress.ts'
import { runScript } from './common/run-script.ts'
import { median } from './common/stats.ts'
import { machineCpu, sampleTree } from './pipeline/proc.ts'
import { expectedProduct, shopJobs } from './workers/shop-jobs.ts'

const USAGE = `Usage: npm run bench:workers -- [flags]
  --jobs=<n>           jobs (pages) per run (default 120)
  --workers=<n,n,…>    the levels: worker processes at once (default 1,2,3)
  --runs=<n>           runs per level (default 2)
  --concurrency=<n>    jobs at once in each worker (default 2)`

const { startShop } = createRequire(import.meta.url)('../examples/crawlee/site.js') as {
  startShop(options?: { port?: number }): Promise<Parameters<typeof shopJobs>[0] & { close(): Promise<void> }>
}

interface Run {
  workers: number
  jobs: number
  wallMs: number
  perMinute: number
  medianJobMs: number | undefined
  coresBusy: number
  /** Cores the worker processes and their Chromes used, over the run. */
  workerCores: number
  failed: string[]
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['jobs', 'workers', 'runs', 'concurrency'] })
  const jobs = integerFlag(flags, 'jobs', 120)
  const runs = integerFlag(flags, 'runs', 2)
  const concurrency = integerFlag(flags, 'concurrency', 2)
  const levels = listFlag(flags, 'workers', ['1', '2', '3']).map((value) => {
    const level = Number(value)
    if (!Number.isInteger(level) || level < 1) throw new FlagError(`--workers must list whole numbers ≥ 1, got ${JSON.stringify(value)}.`)
    return level
  })
  const redis = await startRedis()
  const site = await startShop({ port: 0 })
  const flagsFor = [`--concurrency=${concurrency}`]
  const results: Run[] = []
  try {
    progress('bench:workers', `warm-up: one worker learns the sort goal into the cache`)
    await runLevel(1, 10, 'warm-up', flagsFor)
    for (const level of levels) {
      for (let run = 1; run <= runs; run++) {
        const result = await runLevel(level, jobs, `w${level}-r${run}`, flagsFor)
        results.push(result)
        progress(
          'bench:workers',
          `${level} worker(s), run ${run}: ${result.perMinute.toFixed(0)} pages/min, workers ${result.workerCores.toFixed(2)} and machine ${result.coresBusy.toFixed(2)} cores busy, ${result.failed.length} failed`,
        )
      }
    }
  } finally {
    await site.close()
    await redis.stop()
  }
  process.stdout.write(render(results, { jobs, concurrency }))
  return 0

  async function runLevel(level: number, count: number, run: string, workerFlags: string[]): Promise<Run> {
    const workers = await Promise.all(Array.from({ length: level }, () => startWorkerProcess(redis.url, workerFlags)))
    try {
      const treesMs = () => workers.reduce((sum, worker) => sum + sampleTree(worker.pid).cpuMs, 0)
      const cpu = machineCpu()
      const workersBefore = treesMs()
      const started = performance.now()
      const { results: ended } = await produce({ redis: redis.url, jobs: shopJobs(site, count, run), backoffMs: 100 })
      const wallMs = performance.now() - started
      const busyMs = machineCpu().busyMs - cpu.busyMs
      const workerMs = treesMs() - workersBefore
      return {
        workers: level,
        jobs: count,
        wallMs,
        perMinute: (count / wallMs) * 60_000,
        medianJobMs: median(ended.flatMap((entry) => (entry.state === 'completed' ? [entry.result.ms] : []))),
        coresBusy: busyMs / wallMs,
        workerCores: workerMs / wallMs,
        failed: ended.flatMap((entry) => failure(entry)),
      }
    } finally {
      for (const worker of workers) worker.child.kill('SIGTERM')
      await Promise.all(workers.map((worker) => worker.exited))
    }
  }

  function failure(entry: ProducedResult): string[] {
    if (entry.state === 'failed') return [`${entry.id}: ${entry.error}`]
    const { result } = entry
    if (result.status !== 'success') return [`${entry.id}: ${result.error}`]
    const expected = expectedProduct(site, result.url)
    const data = result.extract?.data as { name?: string; price?: number } | undefined
    if (expected && (data?.name !== expected.name || data?.price !== expected.price)) return [`${entry.id}: read ${JSON.stringify(data)}, not ${JSON.stringify(expected)}`]
    return []
  }
}

function render(runs: Run[], setup: { jobs: number; concurrency: number }): string {
  const levels = [...new Set(runs.map((run) => run.workers))]
  const rows = levels.map((level) => {
    const mine = runs.filter((run) => run.workers === level)
    const each = mine.map((run) => run.perMinute.toFixed(0)).join(', ')
    const jobMs = median(mine.flatMap((run) => (run.medianJobMs === undefined ? [] : [run.medianJobMs])))
    const busy = median(mine.map((run) => run.coresBusy))!
    const workerCores = median(mine.map((run) => run.workerCores))!
    const failed = mine.reduce((sum, run) => sum + run.failed.length, 0)
    return `| ${level} | ${median(mine.map((run) => run.perMinute))!.toFixed(0)} (${each}) | ${jobMs === undefined ? 'n/a' : `${jobMs.toFixed(0)} ms`} | ${workerCores.toFixed(2)} | ${busy.toFixed(2)} of ${availableParallelism()} | ${failed} |`
  })
  const failures = runs.flatMap((run) => run.failed.map((line) => `- ${run.workers} worker(s): ${line}`))
  return [
    `${setup.jobs} jobs a run, ${setup.concurrency} at once per worker, each worker its own Chrome; ${availableParallelism()} cores.`,
    '',
    '| Workers | Pages per minute (median; each run) | Median job in its worker | Cores used by workers and their Chromes | Machine cores busy | Failed |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(failures.length > 0 ? ['Failures:', ...failures, ''] : []),
  ].join('\n')
}

runScript('bench:workers', USAGE, main)
