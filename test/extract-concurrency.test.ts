import test, { type ExecutionContext } from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { UNUSABLE_RULES } from '../src/extract/rule-writer.ts'
import { MAX_RULE_DEPTH } from '../src/extract/validate-rules.ts'
import type { Rules } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { textResult } from './helpers/language-models.ts'
import { scriptedModel } from './helpers/goal-scripted-model.ts'

// One agent call at a time on a page, and rules that only ever read the document they were written for.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: ExecutionContext, path = 'sites/documents/first.html'): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  return page
}

/** A promise the test resolves when it is done holding something. */
function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}

/** A text model that writes `rules`, after `meanwhile` ran while it "thinks". */
function ruleWriter(rules: unknown, meanwhile: () => unknown = () => {}): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      await meanwhile()
      return textResult(JSON.stringify({ rules }))
    },
  })
}

const TITLE = { title: { selector: 'h1' } }

test('extract() while a goal runs is refused, naming the goal; once it ends, extraction works', async (t) => {
  const page = agent(await open(t))
  const held = gate()
  const goal = page.goal('Read the page.', { decisions: scriptedModel([{ operation: 'DONE', before: () => held.promise }]).model, checklist: false })
  await t.throwsAsync(page.extract({ title: { selector: 'h1', attr: 'text' } }), {
    instanceOf: UsageError,
    message: 'A goal is already running on this page: wait for it to finish before starting an extraction.',
  })
  await t.throwsAsync(agent.applyRules(page, { title: { selector: 'h1', attr: 'text' } }), {
    instanceOf: UsageError,
    message: /A goal is already running on this page: wait for it to finish before starting agent\.applyRules/,
  })
  held.open()
  t.is((await goal).status, 'success')
  t.deepEqual((await page.extract({ title: { selector: 'h1', attr: 'text' } })).data, { title: 'First document' })
})

test('goal() while an extraction runs is refused, naming the extraction; a second extraction too', async (t) => {
  const page = agent(await open(t))
  const held = gate()
  const extraction = page.extract('the title', { text: ruleWriter(TITLE, () => held.promise) })
  const decisions = scriptedModel([{ operation: 'DONE' }])
  await t.throwsAsync(page.goal('Anything.', { decisions: decisions.model, checklist: false }), {
    instanceOf: UsageError,
    message: 'An extraction is already running on this page: wait for it to finish before starting a goal.',
  })
  t.is(decisions.seen.length, 0)
  await t.throwsAsync(page.extract({ title: { selector: 'h1' } }), {
    instanceOf: UsageError,
    message: 'An extraction is already running on this page: wait for it to finish before starting another.',
  })
  await t.throwsAsync(agent.extract(page, { title: { selector: 'h1' } }), { instanceOf: UsageError, message: /An extraction is already running/ })
  await t.throwsAsync(agent.applyRules(page, { title: { selector: 'h1' } }), { instanceOf: UsageError, message: /An extraction is already running/ })
  held.open()
  const result = await extraction
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, { title: 'First document' })
  // The lock is released however the extraction ended.
  t.is((await page.goal('Anything.', { decisions: decisions.model, checklist: false })).status, 'success')
})

test('an extractor built on agent.applyRules runs inside its own extraction, while agent.applyRules from outside is refused', async (t) => {
  const page = await open(t)
  const held = gate()
  const extractor = async (on: Page, rules: Rules) => {
    await held.promise
    return agent.applyRules(on, rules)
  }
  const extraction = agent(page, { extractor }).extract({ title: { selector: 'h1', attr: 'text' } })
  await t.throwsAsync(agent.applyRules(page, { title: { selector: 'h1' } }), {
    instanceOf: UsageError,
    message: 'An extraction is already running on this page: wait for it to finish before starting agent.applyRules.',
  })
  held.open()
  const result = await extraction
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, { title: 'First document' })
  const failed = await agent(page, { extractor: () => Promise.reject(new Error('engine down')) }).extract({ title: { selector: 'h1' } })
  t.is(failed.error?.message, 'engine down')
  // Released however the extraction ended.
  t.deepEqual(await agent.applyRules(page, { title: { selector: 'h1', attr: 'text' } }), { title: 'First document' })
})

test('a navigation while the model writes the rules ends status error, never with the new page\'s data', async (t) => {
  const page = await open(t)
  // Unchanged, the page gives its data.
  const unchanged = await agent(page).extract('the items', { text: ruleWriter({ items: { selectorAll: '.item' } }) })
  t.is(unchanged.status, 'success', String(unchanged.error))
  t.deepEqual(unchanged.data, { items: ['Apples', 'Pears'] })
  const text = ruleWriter({ items: { selectorAll: '.item' } }, () => page.goto(servers.site.url('sites/documents/second.html')))
  const result = await agent(page).extract('the items', { text })
  t.is(result.status, 'error')
  t.is(result.data, undefined)
  t.regex(result.error!.message, /navigated or replaced its document while the rules were written \(from .*first\.html to .*second\.html\)/)
  t.is(await page.$eval('h1', (element) => element.textContent), 'Second document')
})

test('a navigation by the page itself while the model writes the rules ends status error', async (t) => {
  const page = await open(t)
  const text = ruleWriter(TITLE, async () => {
    const loaded = page.waitForNavigation()
    await page.evaluate(() => location.replace('second.html'))
    await loaded
  })
  const result = await agent(page).extract('the title', { text })
  t.is(result.status, 'error')
  t.regex(result.error!.message, /navigated or replaced its document/)
})

test('a document replaced in place (document.open) while the model writes the rules ends status error', async (t) => {
  const page = await open(t)
  const text = ruleWriter({ items: { selectorAll: '.item' } }, () =>
    page.evaluate(() => {
      document.open()
      document.write('<h1>Replaced</h1><ul><li class="item">Other</li></ul>')
      document.close()
    }),
  )
  const result = await agent(page).extract('the items', { text })
  t.is(result.status, 'error')
  t.is(result.data, undefined)
  t.regex(result.error!.message, /navigated or replaced its document/)
})

test('a route change of a single-page app (pushState) while the model writes the rules ends status error', async (t) => {
  const page = await open(t)
  const text = ruleWriter(TITLE, () =>
    page.evaluate(() => {
      history.pushState({}, '', 'other-route')
      document.querySelector('h1')!.textContent = 'Another route'
    }),
  )
  const result = await agent(page).extract('the title', { text })
  t.is(result.status, 'error')
  t.regex(result.error!.message, /navigated or replaced its document while the rules were written \(from .*first\.html to .*other-route\)/)
})

test('a page that only moves to an anchor of its own while the model writes the rules is the same page', async (t) => {
  const page = await open(t)
  const text = ruleWriter(TITLE, () => page.evaluate(() => void (location.hash = 'reviews')))
  const result = await agent(page).extract('the title', { text })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
})

/** The messages of an error and of its causes, one a line. */
function causes(error: unknown): string {
  const messages: string[] = []
  for (let current = error; current instanceof Error; current = current.cause) messages.push(current.message)
  return messages.join('\n')
}

/** Rules nested `depth` levels deep: a list in a list…, one field at the bottom. */
function nested(depth: number): Rules {
  let rules: Rules = { leaf: { selector: 'h1' } }
  for (let level = 1; level < depth; level++) rules = { items: { selectorAll: 'ul', attr: rules } }
  return rules
}

test('rules beyond the limits: the caller\'s throw a UsageError at once, a model\'s end status error', async (t) => {
  const page = agent(await open(t))
  const deep = nested(150)
  const started = performance.now()
  await t.throwsAsync(page.extract(deep), { instanceOf: UsageError, message: /Rules nest 150 levels deep .*at most 12 levels/ })
  // Before the limit, rules this deep held the page until the protocol timeout.
  t.true(performance.now() - started < 1_000)
  const result = await page.extract('everything', { text: ruleWriter(nested(MAX_RULE_DEPTH + 1)) })
  t.is(result.status, 'error')
  t.is(result.error!.message, UNUSABLE_RULES)
  t.regex(String((result.error!.cause as Error).message), /Rules nest 13 levels deep/)
  const reserved = await page.extract('the title', { text: ruleWriter({ constructor: { selector: 'h1' } }) })
  t.is(reserved.status, 'error')
  t.regex(causes(reserved.error), /field "constructor": a field may not be named "constructor"/)
  // Written as JSON: in an object literal, "__proto__" sets the prototype. The SDK's JSON parser refuses it.
  const proto = new MockLanguageModelV4({ doGenerate: async () => textResult('{"rules":{"__proto__":{"selector":"h1"},"title":{"selector":"h1"}}}') })
  const refused = await page.extract('the title', { text: proto })
  t.is(refused.status, 'error')
  t.regex(causes(refused.error), /forbidden prototype property/)
})
