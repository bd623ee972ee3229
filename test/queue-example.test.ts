// examples/workers/ as its README runs it: the example's own worker (startWorker) and producer
// (produce) on a Redis, against the Crawlee example's shop. A second producer run adds no job.
import test from 'ava'
import { execFile, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import { startRedis } from './helpers/redis-server.ts'

const { startShop } = createRequire(import.meta.url)('../examples/crawlee/site.js') as { startShop(options: { port: number }): Promise<{ url: string; close(): Promise<void> }> }
const run = promisify(execFile)

test('the example worker and producer run the shop\'s jobs, and a second producer run reuses their results', async (t) => {
  const [redis, shop] = await Promise.all([startRedis(), startShop({ port: 0 })])
  const env = { ...process.env, REDIS_URL: redis.url }
  const worker = spawn(process.execPath, ['examples/workers/worker.js', '--concurrency=3'], { env, stdio: ['ignore', 'ignore', 'pipe'] })
  t.teardown(async () => {
    worker.kill('SIGKILL')
    await Promise.all([redis.stop(), shop.close()])
  })
  let stderr = ''
  await new Promise<void>((resolve, reject) => {
    worker.stderr.on('data', (chunk) => {
      stderr += chunk
      if (/: ready\n/.test(stderr)) resolve()
    })
    worker.once('exit', (code) => reject(new Error(`worker.js exited with ${code}:\n${stderr}`)))
  })
  const args = ['examples/workers/produce.js', `--origin=${shop.url.replace(/\/$/, '')}`, '--limit=12']
  const first = await run(process.execPath, args, { env })
  t.is(first.stdout, '12 jobs: 12 completed (12 successful, 0 after a retry), 0 failed; 0 were queued before.\n')
  const again = await run(process.execPath, args, { env })
  t.is(again.stdout, '12 jobs: 12 completed (12 successful, 0 after a retry), 0 failed; 12 were queued before.\n')
  const exited = new Promise((resolve) => worker.once('exit', (code) => resolve(code)))
  worker.kill('SIGTERM')
  t.is(await exited, 0, stderr)
  t.regex(stderr, /stopped\n$/)
})
