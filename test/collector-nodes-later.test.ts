import test from 'ava'
import type { CDPSession, Page } from 'puppeteer-core'
import { useChrome } from './helpers/chrome.ts'
import { frameSession } from '../src/browser/isolated-world.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'

// The page reports an observation as a string, so the model can be asked at once; the nodes it saw
// first are taken as handles after that, while the model decides. Here the renderer's answer to that
// read (`Runtime.getProperties`) is held back by the test, to show what comes before it and after.

const chrome = useChrome(test)

const FORM = '<h1>Search</h1><input aria-label="Query"><button>Go</button><a href="#more">More</a>'

/** Holds every `Runtime.getProperties` of the page's main session until `open()`; `reached` settles at the first. */
function holdPropertyReads(page: Page): { open(): void; reached: Promise<void> } {
  const session = frameSession(page.mainFrame()) as CDPSession & { send: CDPSession['send'] }
  const send = session.send.bind(session)
  let opened: () => void = () => {}
  const gate = new Promise<void>((resolve) => (opened = resolve))
  let reachedNow: () => void = () => {}
  const reached = new Promise<void>((resolve) => (reachedNow = resolve))
  session.send = ((method: string, ...rest: unknown[]) => {
    if (method !== 'Runtime.getProperties') return (send as (method: string, ...rest: unknown[]) => Promise<unknown>)(method, ...rest)
    reachedNow()
    return gate.then(() => (send as (method: string, ...rest: unknown[]) => Promise<unknown>)(method, ...rest))
  }) as CDPSession['send']
  return { open: () => opened(), reached }
}

test('the observation is handed on before its nodes are taken; they come after, pointing at the controls', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(FORM)
  const reads = holdPropertyReads(page)
  const snapshot = await observe(page)
  t.teardown(() => {
    reads.open()
    return snapshot.dispose()
  })
  let ready = false
  void snapshot.ready.then(() => (ready = true))
  t.deepEqual(snapshot.observation.elements.map((element) => element.name), ['Query', 'Go', 'More'])
  // The observation is out; the read of its nodes comes after, and the handles with it.
  await reads.reached
  t.false(ready)
  t.is(snapshot.handles.size, 0)
  reads.open()
  await snapshot.ready
  const go = snapshot.observation.elements.find((element) => element.name === 'Go')!
  t.is(await snapshot.handles.get(go.id)!.evaluate((element) => element.textContent), 'Go')
  t.deepEqual(await checkFreshness(snapshot, go.id).then((result) => result.fresh), true)
})

test('a document replaced before the nodes are taken: the snapshot holds none, its targets are stale, and the next observation takes them afresh', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(FORM)
  const reads = holdPropertyReads(page)
  const first = await observe(page)
  t.teardown(() => reads.open())
  await page.goto(`data:text/html,${encodeURIComponent(FORM)}`)
  reads.open()
  await first.ready
  t.is(first.handles.size, 0)
  const go = first.observation.elements.find((element) => element.name === 'Go')!
  t.deepEqual(await checkFreshness(first, go.id), { fresh: false, reason: 'node not taken' })
  const second = await observe(page, { previous: first })
  t.teardown(() => second.dispose())
  await second.ready
  t.is(second.handles.size, 3)
  const again = second.observation.elements.find((element) => element.name === 'Go')!
  t.true((await checkFreshness(second, again.id)).fresh)
})
