// A worker on a remote browser (a pool's, reached only by its WebSocket endpoint): its jobs run there,
// each in a context of its own, and stopping the worker leaves the browser running without them.
import test from 'ava'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer from 'puppeteer-core'
import { produce } from '../src/queue/index.ts'
import { startRemoteChrome } from './helpers/remote-chrome.ts'
import { startRedis } from './helpers/redis-server.ts'
import { ITEM_RULES, item, startQueueSite } from './fixtures/queue-site.ts'
import { startWorkerProcess } from './fixtures/queue-workers.ts'

test('worker --ws-endpoint runs its jobs on the remote browser, records them, and leaves the browser running when it stops', async (t) => {
  const [redis, site, chrome, recordings] = await Promise.all([startRedis(), startQueueSite(), startRemoteChrome(), mkdtemp(join(tmpdir(), 'queue-record-'))])
  t.teardown(async () => {
    await Promise.all([redis.stop(), site.close(), chrome.close(), rm(recordings, { recursive: true, force: true })])
  })
  const worker = await startWorkerProcess(redis.url, [`--ws-endpoint=${chrome.wsEndpoint}`, '--concurrency=3', '--no-cache', `--record=${recordings}`])
  t.teardown(() => void worker.child.kill('SIGKILL'))
  t.regex(worker.stderr, new RegExp(`on the browser at ${chrome.wsEndpoint.replace(/[/.]/g, '\\$&')}, no cache`))
  const jobs = [1, 2, 3, 4, 5, 6].map((n) => ({ id: `remote-${n}`, url: `${site.url}/item/${n}`, extract: { rules: ITEM_RULES } }))
  const { results } = await produce({ redis: redis.url, jobs })
  t.deepEqual(
    results.map((result) => result.state === 'completed' && result.result.extract?.data),
    [1, 2, 3, 4, 5, 6].map(item),
  )
  // With --record each result carries its report's path, as a script's result does.
  for (const result of results) {
    const report = result.state === 'completed' ? result.result.extract?.report : undefined
    t.true(report !== undefined && report.startsWith(recordings) && existsSync(report), `${result.id}: ${report}`)
  }
  worker.child.kill('SIGTERM')
  t.like(await worker.exited, { code: 0 })
  t.true(chrome.running)
  // The pool's browser is left as it was: only its own first tab, none of the jobs' contexts.
  const browser = await puppeteer.connect({ browserWSEndpoint: chrome.wsEndpoint })
  t.teardown(() => browser.disconnect())
  t.deepEqual((await browser.pages()).map((page) => page.url()), ['about:blank'])
  t.is(browser.browserContexts().length, 1)
})
