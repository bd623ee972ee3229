// The queue as a user installs it: its own entry, puppeteer-agent/queue, so the main entry stays the
// agent function and loads no Redis client.
import test from 'ava'
import { spawnSync } from 'node:child_process'
import { produce, readJobsFile, redisCache, startWorker } from 'puppeteer-agent/queue'

test('puppeteer-agent/queue exports the worker, the producer and their helpers', (t) => {
  for (const fn of [startWorker, produce, readJobsFile, redisCache]) t.is(typeof fn, 'function')
})

test('require("puppeteer-agent") loads neither bullmq nor ioredis', (t) => {
  const script = "require('puppeteer-agent'); const loaded = Object.keys(require.cache).filter((path) => /node_modules\\/(bullmq|ioredis)\\//.test(path)); console.log(JSON.stringify(loaded))"
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' })
  t.is(run.status, 0, run.stderr)
  t.deepEqual(JSON.parse(run.stdout), [])
})

test('startWorker and produce refuse bad options before connecting, naming the value', async (t) => {
  const browser = async () => {
    throw new Error('never opened')
  }
  await t.throwsAsync(startWorker({ redis: 'localhost:6379', browser }), { message: /redis must be a redis:\/\/ or rediss:\/\/ URL, got "localhost:6379"/ })
  await t.throwsAsync(startWorker({ redis: 'redis://127.0.0.1:1', browser, concurrency: 0 }), { message: /concurrency must be a whole number ≥ 1, got 0/ })
  await t.throwsAsync(startWorker({ redis: 'redis://127.0.0.1:1', browser: 'chrome' as never }), { message: /browser must be a function/ })
  await t.throwsAsync(produce({ redis: 'redis://127.0.0.1:1', queue: 'a:b', jobs: [] }), { message: /queue must be a name of letters/ })
  await t.throwsAsync(produce({ redis: 'redis://127.0.0.1:1', jobs: [{ url: 'ftp://x', goals: 'x' }] }), { message: /jobs\[0\]: url must be http or https/ })
  await t.throwsAsync(produce({ redis: 'redis://127.0.0.1:1', jobs: [] }), { message: /^Redis at redis:\/\/127\.0\.0\.1:1 does not answer/ })
})
