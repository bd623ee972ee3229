import test from 'ava'
import type { Page } from 'puppeteer-core'
import type { Snapshot } from '../src/collector/observation.ts'
import { observeSettled, type Observe } from '../src/goal/observe-settled.ts'

// A navigation that commits while the collector runs destroys its context: observe again once the
// new document is parsed, a bounded number of times; any other failure is the run's.

const snapshot = { observation: {}, handles: new Map(), scrollHandles: new Map(), dispose: async () => {} } as unknown as Snapshot

function fakePage(): Page & { waits: number } {
  // The wait for the new document runs in the main frame's isolated world.
  const wait = async () => void (page.waits += 1)
  const page = { waits: 0, mainFrame: () => ({ _id: 'main', client: {}, isolatedRealm: () => ({ evaluate: wait }) }) }
  return page as unknown as Page & { waits: number }
}

test('observes again after the context was destroyed by a navigation', async (t) => {
  const page = fakePage()
  let calls = 0
  const observe: Observe = async () => {
    calls += 1
    if (calls === 1) throw new Error('Execution context was destroyed, most likely because of a navigation.')
    return snapshot
  }
  t.is(await observeSettled(observe, page, {}), snapshot)
  t.is(calls, 2)
  t.is(page.waits, 1)
})

test('gives up after three attempts', async (t) => {
  const page = fakePage()
  let calls = 0
  const observe: Observe = async () => {
    calls += 1
    throw new Error('Execution context was destroyed')
  }
  await t.throwsAsync(observeSettled(observe, page, {}), { message: /Execution context was destroyed/ })
  t.is(calls, 3)
})

test('other failures are not retried', async (t) => {
  const page = fakePage()
  let calls = 0
  const observe: Observe = async () => {
    calls += 1
    throw new Error('collector script failed')
  }
  await t.throwsAsync(observeSettled(observe, page, {}), { message: 'collector script failed' })
  t.is(calls, 1)
})
