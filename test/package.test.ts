// The built package (dist/, from `npx tsc`) as a user installs it, imported by its own name.
import test from 'ava'
import { createRequire } from 'node:module'
import agent from 'puppeteer-agent'
import { domPage } from './helpers/dom-page.ts'

const required = createRequire(import.meta.url)('./fixtures/require.cjs')

/** Enough of a Page for agent(): extractions below go through custom engines, so it is never read. */
function fakePage(): any {
  return domPage('')
}

const RULES = { title: { selector: 'h1' } }

test('import gives the agent function with its statics', (t) => {
  t.is(typeof agent, 'function')
  t.is(typeof agent.extract, 'function')
  t.is(typeof agent.applyRules, 'function')
  t.is(typeof agent.BlockedError, 'function')
})

test('require() from a .cjs file gives the same agent function, not a namespace object', (t) => {
  t.is(typeof required, 'function')
  t.is(required, agent)
})

test('agent(page, defaults) returns the same page with extract added', (t) => {
  const page = fakePage()
  t.is(agent(page, { timeout: 1000 }), page)
  t.is(typeof page.extract, 'function')
})

test('agent() without a page throws', (t) => {
  t.throws(() => (agent as any)(), { message: /needs a Puppeteer Page/ })
  t.throws(() => (agent as any)({}), { message: /needs a Puppeteer Page/ })
})

test('an option passed to a call overrides the default', async (t) => {
  const page = agent(fakePage(), { extractor: () => 'default engine' })
  t.is((await page.extract(RULES, { extractor: () => 'call engine' })).data, 'call engine')
})

test('an option passed as undefined or null keeps the default', async (t) => {
  const page = agent(fakePage(), { extractor: () => 'default engine' })
  t.is((await page.extract(RULES, { extractor: undefined })).data, 'default engine')
  t.is((await page.extract(RULES, { extractor: null })).data, 'default engine')
  t.is((await page.extract(RULES)).data, 'default engine')
})

test('defaults belong to the page they were given with', async (t) => {
  agent(fakePage(), { extractor: () => 'first page' })
  const other = agent(fakePage(), { extractor: () => 'second page' })
  t.is((await other.extract(RULES)).data, 'second page')
})

test('an unknown option name throws, naming the option', async (t) => {
  t.throws(() => agent(fakePage(), { timeuot: 5 } as any), { message: /Unknown option "timeuot"/ })
  const page = agent(fakePage(), { extractor: () => 'engine' })
  await t.throwsAsync(page.extract(RULES, { maxStep: 3 } as any), { message: /Unknown option "maxStep"/ })
})

test('an invalid option value throws, naming the option', (t) => {
  t.throws(() => agent(fakePage(), { timeout: 'soon' } as any), { message: /Invalid option "timeout"/ })
})
