import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { checkFreshness } from '../src/collector/check-freshness.ts'
import { observe } from '../src/collector/observe.ts'
import type { Observation } from '../src/collector/observation.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel } from './helpers/goal-scripted-model.ts'

// Every page script runs in an isolated world: a page that replaces the built-ins a script in its own
// world would use (arrays, JSON, Object.keys, Promise, Map, MutationObserver, elementFromPoint,
// getBoundingClientRect, querySelectorAll, Symbol.for, Function.prototype.toString, the iterator, …)
// and plants a fake collector on `document` is seen and driven exactly as the untouched page.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const HOSTILE = 'sites/hostile/builtins.html?hostile=1'
const PLAIN = 'sites/hostile/builtins.html'

/** What must not differ: every offered control as the model sees it, and the page's text. */
function seen(observation: Observation) {
  return {
    text: observation.text,
    elements: observation.elements.map(({ id, role, name, tag, value, state, operations, options, form, nearby, rect }) => ({
      id,
      role,
      name,
      tag,
      value,
      state,
      operations,
      options,
      form,
      nearby,
      rect,
    })),
    scroll: observation.scroll,
    blockers: observation.blockers,
  }
}

async function observed(page: Page, path: string) {
  await page.goto(servers.site.url(path))
  const snapshot = await observe(page)
  await snapshot.dispose()
  return snapshot.observation
}

test('the page really replaced its built-ins (the fixture is hostile)', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(HOSTILE))
  t.deepEqual(
    await page.evaluate(() => [JSON.stringify({ a: 1 }), [1, 2].map((n) => n * 2).length, Object.keys({ a: 1 }).length, document.title]),
    ['"hostile"', 0, 0, 'hostile title'],
  )
})

test('a page that replaced 40 built-ins gives the same elements, names, action IDs and text as the untouched page', async (t) => {
  const page = await chrome.page(t)
  const plain = await observed(page, PLAIN)
  const hostile = await observed(page, HOSTILE)
  t.true(plain.elements.length >= 5)
  t.deepEqual(seen(hostile), seen(plain))
  // The title is the document's own, not the getter the page put on `document`.
  t.is(hostile.title, 'Sign up')
})

test('the freshness check and the settle wait work on the hostile page', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(HOSTILE))
  const snapshot = await observe(page)
  const join = snapshot.observation.elements.find((element) => element.name === 'Join')!
  t.like(await checkFreshness(snapshot, join.id), { fresh: true })
  await snapshot.dispose()
})

test('a goal on the hostile page succeeds: type, choose, tick, click', async (t) => {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(HOSTILE))
  const scripted = scriptedModel([
    { operation: 'TYPE_TEXT', target: 'Email' },
    { operation: 'SELECT', target: 'Plan', option: 'Gold' },
    { operation: 'CLICK', target: 'Send me news' },
    { operation: 'CLICK', target: 'Join' },
    { operation: 'DONE' },
  ])
  const result = await agent(page).goal('Join with ada@example.com on the Gold plan, with news.', {
    decisions: scripted.model,
    text: textModel('ada@example.com'),
  })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  t.is(result.steps, 4)
  t.is(await page.$eval('#status', (element) => element.textContent), 'Welcome, ada@example.com')
  t.deepEqual(
    await page.$eval('#signup', (form) => [(form as HTMLFormElement).plan.value, (form as HTMLFormElement).news.checked]),
    ['Gold', true],
  )
})
