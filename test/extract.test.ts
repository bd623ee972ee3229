import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { domPage } from './helpers/dom-page.ts'
import { captureLog } from './helpers/debug-log.ts'

const HTML = '<h1>Hello</h1><p class="n">42</p>'

test('page.extract(rules) resolves success with the data', async (t) => {
  const page = agent(domPage(HTML))
  const result = await page.extract({ title: { selector: 'h1', attr: 'text' }, n: { selector: '.n', attr: 'text' } })
  t.is(result.status, 'success')
  t.deepEqual(result.data, { title: 'Hello', n: 42 })
})

test.serial('a finished extraction logs one debug line with its status, cost and timing', async (t) => {
  const { lines, restore } = captureLog()
  try {
    await agent(domPage(HTML)).extract({ title: { selector: 'h1', attr: 'text' } })
    await agent(domPage(HTML), { extractor: () => Promise.reject(new Error('engine down')) }).extract({ title: { selector: 'h1' } })
  } finally {
    restore()
  }
  t.is(lines.length, 2)
  t.regex(lines[0]!, /\bextract status=success calls=0 .*totalMs=\d+/)
  t.regex(lines[1]!, /\bextract status=error calls=0 /)
})

test('rules with a wrong shape reject with a UsageError before the page is touched', async (t) => {
  const page = agent(domPage(HTML))
  await t.throwsAsync(page.extract({ title: { selector: 'h1', type: 'money' } } as any), { instanceOf: UsageError, message: /field "title": unknown type "money"/ })
  await t.throwsAsync(page.extract({ title: { evaluate: 'document.title' } } as any), { instanceOf: UsageError, message: /"evaluate" is not supported/ })
  t.is(page.evaluations, 0)
})

test('options passed where the rules belong throw', async (t) => {
  const page = agent(domPage(HTML))
  await t.throwsAsync(page.extract({ timeout: 1000 } as any), { instanceOf: UsageError, message: /got options \(timeout\) where the rules belong/ })
  await t.throwsAsync(page.extract({ text: 'openai/gpt-6-luna', signal: new AbortController().signal } as any), {
    instanceOf: UsageError,
    message: /where the rules belong/,
  })
  t.is(page.evaluations, 0)
})

test('a field named like an option is still a field', async (t) => {
  const page = agent(domPage(HTML))
  const result = await page.extract({ text: { selector: 'h1', attr: 'text' } })
  t.deepEqual(result.data, { text: 'Hello' })
})

test('options go last and are checked, naming the option', async (t) => {
  const page = agent(domPage(HTML))
  const rules = { title: { selector: 'h1', attr: 'text' } }
  await t.throwsAsync(page.extract(rules, { timeout: -5 }), { instanceOf: UsageError, message: /Invalid option "timeout"/ })
  await t.throwsAsync(page.extract(rules, { nope: 1 } as any), { instanceOf: UsageError, message: /Unknown option "nope"/ })
  await t.throwsAsync((page.extract as any)(rules, {}, {}), { instanceOf: UsageError, message: /at most 2 arguments/ })
  t.is((await page.extract(rules, { timeout: 1000 })).status, 'success')
})

test('called without rules or an instruction it throws', async (t) => {
  const page = agent(domPage(HTML))
  await t.throwsAsync((page.extract as any)(), { instanceOf: UsageError, message: /needs rules \(an object\) or an instruction/ })
  await t.throwsAsync((page.extract as any)(42), { instanceOf: UsageError, message: /got 42/ })
  await t.throwsAsync((page.extract as any)([{ selector: 'h1' }]), { instanceOf: UsageError, message: /got an array/ })
  await t.throwsAsync(page.extract('   '), { instanceOf: UsageError, message: /the instruction is empty/ })
})

test('a navigation during the read resolves status error with the original error', async (t) => {
  const destroyed = new Error('Execution context was destroyed, most likely because of a navigation.')
  const page = agent(Object.assign(domPage(HTML), { evaluate: async () => Promise.reject(destroyed) }))
  const result = await page.extract({ title: { selector: 'h1' } })
  t.is(result.status, 'error')
  t.is(result.error, destroyed)
  t.is(result.data, undefined)
  t.deepEqual((await result.profiling()).rules, { title: { selector: 'h1' } })
})

test('an aborted signal resolves status error without reading the page', async (t) => {
  const page = domPage(HTML)
  const controller = new AbortController()
  controller.abort(new Error('stop'))
  const result = await agent(page).extract({ title: { selector: 'h1' } }, { signal: controller.signal })
  t.is(result.status, 'error')
  t.is(result.error?.message, 'stop')
  t.is(page.evaluations, 0)
})

test('a custom extractor runs instead of the built-in engine and its rules are not checked', async (t) => {
  const page = domPage(HTML)
  const seen: unknown[] = []
  const extractor = (p: Page, rules: unknown) => {
    seen.push([p, rules])
    return { custom: true }
  }
  const rules = { title: { xpath: '//h1' } } as any
  const result = await agent(page, { extractor }).extract(rules)
  t.deepEqual(result.data, { custom: true })
  t.deepEqual(seen, [[page, rules]])
  t.is(page.evaluations, 0)
})

test('a custom extractor that throws resolves status error', async (t) => {
  const boom = new Error('engine failed')
  const result = await agent(domPage(HTML), {
    extractor: () => {
      throw boom
    },
  }).extract({ title: { selector: 'h1' } })
  t.is(result.status, 'error')
  t.is(result.error, boom)
})

test('a page that already has an extract method keeps it as the engine', async (t) => {
  const page = domPage(HTML) as Page & { extract?: unknown }
  const calls: unknown[] = []
  page.extract = async function (this: unknown, rules: unknown) {
    calls.push([this, rules])
    return { fromMicrolink: true }
  }
  const decorated = agent(page)
  const result = await decorated.extract({ title: { selector: 'h1' } })
  t.deepEqual(result.data, { fromMicrolink: true })
  t.deepEqual(calls, [[page, { title: { selector: 'h1' } }]])
  // A second agent(page) must not take the installed method for a custom engine.
  const again = agent(agent(domPage(HTML)))
  t.deepEqual((await again.extract({ title: { selector: 'h1', attr: 'text' } })).data, { title: 'Hello' })
})

test('the extractor option overrides a page\'s own extract method', async (t) => {
  const page = domPage(HTML) as Page & { extract?: unknown }
  page.extract = async () => ({ fromPage: true })
  const result = await agent(page, { extractor: () => ({ fromOption: true }) }).extract({ a: {} })
  t.deepEqual(result.data, { fromOption: true })
})

test('agent.extract uses a page\'s own extract method as the engine too, and leaves it in place', async (t) => {
  const page = domPage(HTML) as Page & { extract?: unknown }
  const own = async () => ({ fromPage: true })
  page.extract = own
  const result = await agent.extract(page, { title: { selector: 'h1' } })
  t.deepEqual(result.data, { fromPage: true })
  t.is(page.extract, own)
})

test('agent.extract works without touching the page', async (t) => {
  const page = domPage(HTML)
  const result = await agent.extract(page, { title: { selector: 'h1', attr: 'text' } })
  t.deepEqual(result.data, { title: 'Hello' })
  t.false('extract' in page)
})
