// A worker of your own, with the library's function instead of `puppeteer-agent worker`: the same
// loop, with your browser and your agent options (here a Chrome of its own and the replay cache in
// the queue's Redis). Start as many as you like, on as many machines, against one Redis.
//
//   REDIS_URL=redis://127.0.0.1:6379 node examples/workers/worker.js [--concurrency=2]
// SIGTERM or Ctrl-C: the jobs in hand finish, no new one is taken, then it exits.
const { parseArgs } = require('node:util')
const puppeteer = require('puppeteer-core')
// The example runs from this checkout; your own code writes require('puppeteer-agent/queue').
const { startWorker, redisCache } = require('../../dist/queue/index.js')
// From this checkout; your own worker passes its own Chrome (or uses the full `puppeteer` package).
const { findChrome, CHROME_FLAGS, NO_CHROME_MESSAGE } = require('../../dist/cli/find-chrome.js')

async function main() {
  const { values } = parseArgs({ options: { concurrency: { type: 'string', default: '2' } } })
  const redis = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
  const executablePath = findChrome()
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
  const cache = redisCache(redis)
  const worker = await startWorker({
    redis,
    concurrency: Number(values.concurrency),
    // A pipe ties Chrome to this process: it ends with it, even when the worker is killed.
    browser: () => puppeteer.launch({ executablePath, args: [...CHROME_FLAGS], pipe: true }),
    agent: { cache },
    onJob: ({ id, state, result, error }) => console.error(`job ${id} ${state}${result ? `: ${result.status}` : ''}${error ? `: ${error}` : ''}`),
  })
  console.error(`worker ${worker.name}: ready`)
  const stop = async () => {
    console.error(`worker ${worker.name}: finishing the jobs in hand`)
    await worker.close()
    await cache.disconnect()
    console.error(`worker ${worker.name}: stopped`)
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

main().catch((error) => {
  console.error(`worker.js: ${error.message}`)
  process.exitCode = 1
})
