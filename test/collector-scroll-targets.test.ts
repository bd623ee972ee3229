import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { callInFrame } from '../src/browser/page-script.ts'
import { describeElement } from '../src/collector/describe-element.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { LIMITS } from '../src/collector/limits.ts'
import { observe } from '../src/collector/observe.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import type { Observation, ObservedElement, Snapshot } from '../src/collector/observation.ts'
import type { FrameReport, ObserveRequest } from '../src/page/types.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type SeenRequest, type StateElement } from './helpers/goal-scripted-model.ts'

// Scrolling inside a field or a list, in real Chrome: every scrollable box in view is a scroll target,
// small ones and the field itself included, a scrolled long value is shown from where it is scrolled,
// and the field's fingerprint does not move with it.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: { teardown(fn: () => unknown): void }, path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path), { waitUntil: 'load' })
  return page
}

async function snap(t: { teardown(fn: () => unknown): void }, page: Page, previous?: Snapshot): Promise<Snapshot> {
  const snapshot = await observe(page, { previous })
  t.teardown(() => snapshot.dispose())
  await snapshot.ready
  return snapshot
}

const scrollNamed = (observation: Observation, name: string) => observation.scroll.find((target) => target.name === name)
const elementNamed = (observation: Observation, name: string): ObservedElement => observation.elements.find((element) => element.name === name)!

test('small textareas (one hiding its bar), a short listbox and a listbox select are scroll targets; a one-line box and one that fits are not', async (t) => {
  const page = await open(t, '/collector/scroll-fields.html')
  const { observation } = await snap(t, page)
  t.deepEqual(
    observation.scroll.map(({ name, up, down }) => ({ name, up, down })),
    [
      { name: 'page', up: false, down: false },
      { name: 'Terms', up: false, down: true },
      { name: 'Country', up: false, down: true },
      { name: 'Size', up: false, down: true },
      { name: 'Notes', up: false, down: true },
    ],
  )
  const { questions } = buildDecisionRequest({ goal: 'Read the terms.', observation, recent: [] })
  const down = Object.keys((questions.scroll_down_target as { criteria: object }).criteria)
  t.deepEqual(down, observation.scroll.slice(1).map((target) => target.id))
  t.false('scroll_up_target' in questions)
})

test('SCROLL_DOWN\'s page script moves a 90-pixel listbox, returns once the page\'s scroll listener ran; the listbox can then scroll up', async (t) => {
  const page = await open(t, '/collector/scroll-fields.html')
  const first = await snap(t, page)
  const country = scrollNamed(first.observation, 'Country')!
  const moved = await callInFrame(page.mainFrame(), 'scrollByPage', first.scrollHandles.get(country.id)!, 1)
  t.true(moved >= 40, `moved ${moved} px`)
  // The scroll returns once the page's own scroll listener has run, so the settling sees what it did.
  t.is(await page.evaluate(() => document.body.dataset.scrolled), String(moved))
  const second = await snap(t, page, first)
  t.like(scrollNamed(second.observation, 'Country'), { up: true })
  t.not(second.observation.signature, first.observation.signature, 'a container that scrolled is a page change')
})

test('a scrolled textarea shows its value from the first line in view, saying how much was left out; it is kept whole, and the fingerprint does not move', async (t) => {
  const page = await open(t, '/collector/scroll-fields.html')
  const whole = await page.$eval('#terms', (el) => (el as HTMLTextAreaElement).value)
  const first = await snap(t, page)
  const before = elementNamed(first.observation, 'Terms')
  t.is(before.value, whole, 'a value of 3,000 characters is kept whole')
  t.deepEqual(describeElement(before), {
    ...describeElement(before),
    value: whole.slice(0, LIMITS.valueLimit),
    value_omitted: { before: 0, after: 3_000 - LIMITS.valueLimit },
  })

  const terms = scrollNamed(first.observation, 'Terms')!
  t.is(first.handles.get(before.id), first.scrollHandles.get(terms.id), 'one handle per node, kept while the snapshot lives')
  await first.scrollHandles.get(terms.id)!.evaluate((el) => el.scrollBy(0, 120))
  // The model chose the field before the scroll: it is the same field after it.
  t.like(await checkFreshness(first, before.id), { fresh: true })
  const second = await snap(t, page, first)
  const after = elementNamed(second.observation, 'Terms')
  // 120 pixels are six 20-pixel lines of about 80 characters: the view starts near character 480.
  const shown = describeElement(after) as { value: string; value_omitted: { before: number; after: number } }
  const start = shown.value_omitted.before
  t.true(start > 300 && start < 700, `the part shown starts at character ${start}`)
  t.is(shown.value, whole.slice(start, start + LIMITS.valueLimit))
  t.is(shown.value_omitted.after, 3_000 - start - LIMITS.valueLimit)
  t.is(after.fingerprint, before.fingerprint)
  t.not(second.observation.signature, first.observation.signature)

  // At the bottom, the part shown ends at the value's end and is full.
  await first.scrollHandles.get(terms.id)!.evaluate((el) => el.scrollTo(0, el.scrollHeight))
  const bottom = describeElement(elementNamed((await snap(t, page, second)).observation, 'Terms'))
  t.deepEqual(bottom.value_omitted, { before: 3_000 - LIMITS.valueLimit, after: 0 })
  t.true((bottom.value as string).endsWith('The last clause says the fee is 42 euros.'))
})

test('goal: SCROLL_DOWN in a 3,000-character textarea reveals its end, enables "I accept" at the bottom; the field stays fresh', async (t) => {
  const page = await open(t, '/collector/scroll-fields.html')
  const probe = await observe(page)
  const termsScroll = scrollNamed(probe.observation, 'Terms')!.id
  await probe.dispose()
  const valueOf = (elements: StateElement[]) => (elements.find((element) => element.name === 'Terms') as StateElement & { value: string }).value
  const did = (request: SeenRequest, operation: string) => request.recent.some((action) => action.operation === operation)
  // Scrolls until "I accept" is offered: a SCROLL_DOWN at the bottom is not offered and fails the run,
  // so the request right after the last scroll must offer the button.
  const scripted = scriptedModel((request) => {
    if (did(request, 'TYPE_TEXT')) return { operation: 'DONE' }
    if (did(request, 'CLICK')) return { operation: 'TYPE_TEXT', target: 'Terms' }
    if (request.elements.some((element) => element.name === 'I accept')) return { operation: 'CLICK', target: 'I accept' }
    return { operation: 'SCROLL_DOWN', target: termsScroll }
  })
  const { status, trace, error } = await agent(page).goal('Read the terms to the end, accept them, then replace them with "Agreed".', {
    decisions: scripted.model,
    text: textModel('Agreed'),
    evaluator: evaluatorModel(0.95),
    checklist: false,
    maxSteps: 20,
  })
  t.is(error, undefined)
  t.is(status, 'success')
  t.false(valueOf(scripted.seen[0]!.elements).includes('42 euros'))
  const clicked = scripted.seen.findIndex((request) => request.elements.some((element) => element.name === 'I accept'))
  t.true(valueOf(scripted.seen[clicked]!.elements).endsWith('The last clause says the fee is 42 euros.'), 'the end is read before accepting')
  const scrolls = trace.filter((step) => step.operation === 'SCROLL_DOWN')
  t.true(scrolls.length >= 2 && scrolls.length < 15, `${scrolls.length} scrolls`)
  for (const step of scrolls) t.like(step, { target: termsScroll, pageChanged: true, stale: false })
  t.like(
    trace.find((step) => step.operation === 'TYPE_TEXT'),
    { targetName: 'Terms', stale: false },
  )
  t.is(await page.$eval('#terms', (el) => (el as HTMLTextAreaElement).value), 'Agreed')
})

test('500 small scroll boxes: each frame reports at most the cap, the first in the page first', async (t) => {
  const page = await open(t, '/collector/scroll-fields.html?boxes=500')
  const { observation } = await snap(t, page)
  t.deepEqual(
    observation.scroll.slice(1).map((target) => target.name),
    Array.from({ length: LIMITS.maxScrollers }, (_, i) => `Box ${i + 1}`),
  )
  // The page script stops at the cap, so no more boxes are named, handed to Node or hashed.
  const request: ObserveRequest = {
    docToken: 'cap-check',
    maxElements: LIMITS.maxElements,
    textLimit: LIMITS.textLimit,
    nameLimit: LIMITS.nameLimit,
    nearbyLimit: LIMITS.nearbyLimit,
    valueLimit: LIMITS.valueLimit,
    keptValueLimit: LIMITS.keptValueLimit,
    maxScrollers: LIMITS.maxScrollers,
    frameScroller: false,
    childPoints: [],
    held: [],
    sendKey: 'cap-check',
    listenedKinds: [],
    pointerEverywhere: false,
  }
  const report = JSON.parse(await callInFrame(page.mainFrame(), 'observe', request)) as FrameReport
  t.is(report.scrollers.length, LIMITS.maxScrollers)
})
