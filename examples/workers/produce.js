// The producer of the workers example: enqueue the shop's jobs (./jobs.js) and wait for all of them,
// with a line of progress a second; then a summary. Run it twice: the second run adds no job (the ids
// are the shop's own) and prints the first run's results at once.
//
//   REDIS_URL=redis://127.0.0.1:6379 node examples/workers/produce.js [--origin=http://127.0.0.1:8377] [--limit=N]
const { parseArgs } = require('node:util')
// The example runs from this checkout; your own code writes require('puppeteer-agent/queue').
const { produce } = require('../../dist/queue/index.js')
const { shopJobs } = require('./jobs')

async function main() {
  const { values } = parseArgs({ options: { origin: { type: 'string', default: 'http://127.0.0.1:8377' }, limit: { type: 'string' } } })
  const jobs = shopJobs(values.origin).slice(0, values.limit ? Number(values.limit) : undefined)
  let shown = 0
  const { results, progress } = await produce({
    redis: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    jobs,
    onProgress: ({ total, completed, failed, active }) => {
      if (Date.now() - shown < 1000) return
      shown = Date.now()
      console.error(`${completed + failed}/${total} ended, ${active} running`)
    },
  })
  const completed = results.filter((entry) => entry.state === 'completed')
  const retried = completed.filter((entry) => entry.result.retried)
  console.log(
    `${progress.total} jobs: ${progress.completed} completed (${completed.filter((entry) => entry.result.status === 'success').length} successful, ` +
      `${retried.length} after a retry), ${progress.failed} failed; ${progress.existing} were queued before.`,
  )
  for (const entry of results) if (entry.state === 'failed') console.log(`failed ${entry.id}: ${entry.error}`)
  if (progress.failed > 0) process.exitCode = 1
}

main().catch((error) => {
  console.error(`produce.js: ${error.message}`)
  process.exitCode = 1
})
