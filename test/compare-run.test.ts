import test from 'ava'
import type { Browser } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { runComparison } from '../scripts/compare/comparison.ts'
import { openSite, type Site } from '../scripts/common/site.ts'

const chrome = useChrome(test)
let site: Site

test.before(async () => {
  site = await openSite('demo')
})
test.after.always(async () => {
  await site?.close()
})

/** The test browser, except that its first new context fails, as a crashed or disconnected browser would. */
function failingOnce(browser: Browser): Browser {
  let failed = false
  return new Proxy(browser, {
    get(target, key) {
      if (key === 'createBrowserContext' && !failed) {
        failed = true
        return async () => {
          throw new Error('Protocol error (Target.createBrowserContext): Target closed')
        }
      }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

test('a run that fails to start is recorded as an error and the other runs go on', async (t) => {
  const progress: string[] = []
  const records = await runComparison(
    failingOnce(chrome.browser),
    {
      setups: [
        { decisions: 'local', text: 'local', reasoning: 'none' },
        { decisions: 'local', text: 'local', reasoning: 'low' },
      ],
      runs: 1,
      task: { url: site.url, goals: [site.goal!], checks: { url: [], text: [] }, evaluator: 'local', navigationTimeoutMs: 10_000 },
    },
    (record, done, total) => progress.push(`${done}/${total} ${record.reasoning} ${record.status}`),
  )
  t.deepEqual(progress, ['1/2 none error', '2/2 low done'])
  t.deepEqual(records[0], {
    decisions: 'local',
    text: 'local',
    reasoning: 'none',
    run: 1,
    status: 'error',
    error: 'Protocol error (Target.createBrowserContext): Target closed',
    goalsDone: 0,
    path: '',
    decisionRequests: 0,
    staleDecisions: 0,
    actionsWithoutPageChange: 0,
  })
  // "open the first result" is a judgment item of the demo goal's checklist: not verified by the page.
  t.like(records[1], { reasoning: 'low', status: 'done', agentVerified: false, goalsDone: 1 })
  t.is(records[1]!.failure, undefined)
  // Without task.record nothing is recorded, and the record has no reports field.
  t.false('reports' in records[1]!)
})

test('a page that fails to load is reported as navigationError, the run goes on, and a stop is recorded by its reason', async (t) => {
  const [record] = await runComparison(
    chrome.browser,
    {
      setups: [{ decisions: 'local', text: 'local', reasoning: 'none' }],
      runs: 1,
      // Chrome refuses this port outright: the navigation fails at once.
      task: { url: 'http://127.0.0.1:9/', goals: ['Open the first story'], checks: { url: [], text: [] }, evaluator: 'local', navigationTimeoutMs: 10_000 },
    },
    () => {},
  )
  t.regex(record!.navigationError!, /^net::ERR_\w+ at http:\/\/127\.0\.0\.1:9\/$/)
  // The goal still ran, on the error page, where the agent stops itself: the status is the BlockedError's reason.
  t.true(record!.decisionRequests > 0)
  t.true(['no_change', 'model_blocked', 'step_budget'].includes(record!.status), record!.status)
  // A stop is tagged with its reason, the same word as the status.
  t.is<string | undefined, string>(record!.failure, record!.status)
  t.false(record!.agentVerified)
  t.is(typeof record!.error, 'string')
  t.is(record!.finalUrl, 'chrome-error://chromewebdata/')
})
