import test from 'ava'
import { createLedger } from '../src/base/ledger.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { writeText } from '../src/decision/write-text.ts'
import { startChecklist } from '../src/goal/goal-checklist.ts'
import { runGoalLoop, type GoalParts } from '../src/goal/goal-loop.ts'
import { mergeSettings, parseOptions } from '../src/options.ts'
import type { CacheStore } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel } from './helpers/goal-scripted-model.ts'

// The first observation is not held by what only the first action needs: the replay cache's lookup
// (a store across the network, as Redis is) goes on while the page is observed, and the run decides
// once both are in.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

/** Bounds the test's wait when the lookup is, wrongly, waited for before the page is observed. */
const FALLBACK_MS = 3_000

test('the replay lookup goes on while the page is first observed, and the first decision waits for both', async (t) => {
  const events: string[] = []
  let observed!: () => void
  const firstObservation = new Promise<void>((resolve) => (observed = resolve))
  const store: CacheStore = {
    async get() {
      events.push('lookup sent')
      // Answers once the page was observed, or after the fallback when the observation waits for it.
      await Promise.race([firstObservation, new Promise((resolve) => setTimeout(resolve, FALLBACK_MS))])
      events.push('lookup answered')
      return undefined
    },
    set: () => undefined,
  }
  const parts: GoalParts = {
    observe: async (page, options) => {
      const snapshot = await observe(page, options)
      events.push('observed')
      observed()
      return snapshot
    },
    checkFreshness,
    decideStep,
    writeText,
    startChecklist,
  }
  const page = await chrome.page(t)
  await page.goto(servers.site.url('sites/signup/index.html'))
  const scripted = scriptedModel([{ operation: 'DONE', before: () => void events.push('decision') }])
  const settings = mergeSettings(parseOptions({ decisions: scripted.model, checklist: false, cache: { store } }))
  const outcome = await runGoalLoop(page, 'Look at the sign-up page.', settings, parts, createLedger())
  t.is(outcome.error, undefined)
  t.deepEqual(events, ['lookup sent', 'observed', 'lookup answered', 'decision'])
})
