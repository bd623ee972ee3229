import test from 'ava'
import type { Page } from 'puppeteer-core'
import { createLedger } from '../src/base/ledger.ts'
import { race } from '../src/base/deadline.ts'
import { callInFrame } from '../src/browser/page-script.ts'
import type { RunSignal } from '../src/call/run-signal.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import type { Snapshot } from '../src/collector/observation.ts'
import { observe } from '../src/collector/observe.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { writeText } from '../src/decision/write-text.ts'
import { startChecklist } from '../src/goal/goal-checklist.ts'
import { runGoalLoop, type GoalParts } from '../src/goal/goal-loop.ts'
import type { Observe } from '../src/goal/observe-settled.ts'
import { ObservedPage } from '../src/goal/observed-page.ts'
import { RunListeners } from '../src/goal/run-listeners.ts'
import { mergeSettings, parseOptions } from '../src/options.ts'
import { useChrome } from './helpers/chrome.ts'
import { scriptedModel } from './helpers/goal-scripted-model.ts'

// After an input, the page is observed while it settles, and that observation is the step's when
// settling ends with the page as it was seen; when anything it saw changed meanwhile, the page is
// observed again. The wait for quiet says which (page side), the loop keeps or drops it (Node side).

const chrome = useChrome(test)

interface FakeSnapshot extends Snapshot {
  name: string
  disposed: boolean
  previous: string | undefined
}

/** An observer that hands out numbered fake snapshots, noting what each was told came before it. */
function fakeObserver(fail: (call: number) => boolean = () => false): { observe: Observe; calls: FakeSnapshot[] } {
  const calls: FakeSnapshot[] = []
  const observe: Observe = async (_page, options) => {
    const call = calls.length + 1
    if (fail(call)) {
      calls.push({ name: `failed ${call}` } as FakeSnapshot)
      throw new Error(`observation ${call} failed`)
    }
    const snapshot = {
      name: `snapshot ${call}`,
      previous: (options.previous as FakeSnapshot | undefined)?.name,
      disposed: false,
      observation: { popups: [...(options.popups ?? [])] },
      handles: new Map(),
      scrollHandles: new Map(),
      dispose: async () => void (snapshot.disposed = true),
    } as unknown as FakeSnapshot
    calls.push(snapshot)
    return snapshot
  }
  return { observe, calls }
}

function runSignal(): RunSignal {
  const { signal } = new AbortController()
  return { signal, race: (promise, discard) => race(promise, signal, discard), explain: async (thrown) => thrown, dispose: () => {} }
}

const viewOf = (observe: Observe) => new ObservedPage({} as Page, observe, runSignal(), undefined, new RunListeners([]))

/** An input whose moment to observe ahead has come: the observation starts on the next timer. */
const now = (busy = false) => ({ quietMs: 20, inputAt: performance.now() - 20, busy: () => busy })
const started = () => new Promise((resolve) => setTimeout(resolve, 10))

/** A view observed once, then ahead after an input, the observation ahead under way. */
async function observingAhead(fails?: (call: number) => boolean) {
  const { observe, calls } = fakeObserver(fails)
  const view = viewOf(observe)
  await view.observe([])
  view.observeAhead(now())
  await started()
  return { view, calls }
}

test('an observation made while the page settled is kept when it stands, with the popups told after it', async (t) => {
  const { view, calls } = await observingAhead()
  const kept = (await view.observe(['https://popup.example/'], true)) as FakeSnapshot
  t.is(calls.length, 2)
  t.is(kept.name, 'snapshot 2')
  t.is(kept.previous, 'snapshot 1')
  t.deepEqual(kept.observation.popups, ['https://popup.example/'])
  t.is(view.snapshot, kept)
})

test('one that does not stand hands its memory to the observation made again', async (t) => {
  const { view, calls } = await observingAhead()
  const again = (await view.observe([], false)) as FakeSnapshot
  t.is(calls.length, 3)
  t.is(again.name, 'snapshot 3')
  t.is(again.previous, 'snapshot 2')
})

test('one that failed is observed again from the last observation', async (t) => {
  const { view, calls } = await observingAhead((call) => call === 2)
  const again = (await view.observe([], true)) as FakeSnapshot
  t.deepEqual(
    calls.map((call) => call.name),
    ['snapshot 1', 'failed 2', 'snapshot 3'],
  )
  t.is(again.previous, 'snapshot 1')
})

test('none is made while the page is loading a document or waiting on requests at its moment', async (t) => {
  const { observe, calls } = fakeObserver()
  const view = viewOf(observe)
  await view.observe([])
  view.observeAhead(now(true))
  await started()
  t.is(calls.length, 1)
  const again = (await view.observe([], true)) as FakeSnapshot
  t.is(calls.length, 2)
  t.is(again.previous, 'snapshot 1')
})

test('none is made after an observation that took longer than the quiet awaited; one that is quick again makes it resume', async (t) => {
  let delayMs = 0
  let begun = 0
  const { observe: quick } = fakeObserver()
  const observe: Observe = async (page, options) => {
    begun += 1
    await new Promise((resolve) => setTimeout(resolve, delayMs))
    return quick(page, options)
  }
  const view = viewOf(observe)
  // The page's first observation is not taken as a measure: it installs the script and runs cold.
  delayMs = 60
  await view.observe([])
  view.observeAhead(now())
  await started()
  t.is(begun, 2, 'made after the first observation, however slow')
  await view.observe([], false)
  view.observeAhead(now())
  await started()
  t.is(begun, 3, 'not made after one of 60 ms, with 20 ms of quiet')
  delayMs = 0
  await view.observe([], false)
  view.observeAhead(now())
  await started()
  t.is(begun, 5, 'made again after a quick one')
  await view.observe([], true)
  t.is(begun, 5)
})

test('one still waiting for its moment is not made; one under way when the run ends is let go', async (t) => {
  const { observe, calls } = fakeObserver()
  const view = viewOf(observe)
  await view.observe([])
  // Its moment is a minute away: the step's observation does not wait for it.
  view.observeAhead({ ...now(), quietMs: 120_000, inputAt: performance.now() })
  await view.observe([], true)
  t.is(calls.length, 2)
  t.is(calls[1]!.previous, 'snapshot 1')
  view.observeAhead(now())
  await started()
  await view.dispose()
  await new Promise((resolve) => setImmediate(resolve))
  t.is(calls.length, 3)
  t.true(calls[2]!.disposed)
})

const PAGE = `<!doctype html><html><body>
<button id="now" onclick="document.getElementById('out').textContent = 'Shown at once'">Show now</button>
<button id="late" onclick="setTimeout(() => { document.getElementById('out').textContent = 'Shown later' }, 18)">Show later</button>
<label>Quantity <input id="qty" value="1"></label>
<p id="out">Nothing yet</p>
<div style="height: 3000px"></div>
</body></html>`

// A bound with room: on a busy machine 2 s passed before the page was seen quiet.
const quiet = (page: Page) => callInFrame(page.mainFrame(), 'waitForDomQuiet', 20, 10_000)

test('in Chrome, the wait for quiet says the last observation stands only while nothing it saw has changed', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(PAGE)
  let snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  t.true((await quiet(page)).observationStands)
  const changes: [string, () => void][] = [
    ['a mutation', () => void (document.getElementById('out')!.textContent = 'Changed')],
    ['a value set by script', () => void ((document.getElementById('qty') as HTMLInputElement).value = '3')],
    ['the focus', () => document.getElementById('qty')!.focus()],
    ['a scroll', () => window.scrollTo(0, 200)],
  ]
  for (const [name, change] of changes) {
    snapshot = await observe(page, { previous: snapshot })
    t.true((await quiet(page)).observationStands, `before ${name}`)
    await page.evaluate(change)
    t.false((await quiet(page)).observationStands, name)
  }
})

test('in Chrome, a step keeps the observation made while its click settled, and observes again when the page changed after it', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(PAGE)
  let observations = 0
  const parts: GoalParts = {
    observe: async (page, options) => {
      observations += 1
      return observe(page, options)
    },
    checkFreshness,
    decideStep,
    writeText,
    startChecklist,
  }
  const counts: number[] = []
  const scripted = scriptedModel([
    { operation: 'CLICK', target: 'Show now', before: () => void counts.push(observations) },
    { operation: 'CLICK', target: 'Show later', before: () => void counts.push(observations) },
    { operation: 'DONE', before: () => void counts.push(observations) },
  ])
  const settings = mergeSettings(parseOptions({ decisions: scripted.model, checklist: false }))
  const outcome = await runGoalLoop(page, 'Show the text.', settings, parts, createLedger())
  t.is(outcome.error, undefined)
  t.true(scripted.seen[1]!.page.text.includes('Shown at once'))
  // What the click renders 18 ms on, after the observation made meanwhile, is what the model is shown.
  t.true(scripted.seen[2]!.page.text.includes('Shown later'))
  // The first click's effect is drawn at once: the observation made while it settled is the step's.
  t.is(counts[1]! - counts[0]!, 1)
})
