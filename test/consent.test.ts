import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { CONSENT_DEADLINE_MS } from '../src/consent/dismiss-consent.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptedModel } from './helpers/goal-scripted-model.ts'

// The `consent` option in real Chrome: @duckduckgo/autoconsent clears banners built like OneTrust's,
// Didomi's and Cookiebot's before the goal's first observation, and a banner it cannot clear, or none,
// leaves the run as it is without the option.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

type Options = Record<string, unknown>

/** Opens the fixture and runs a goal on it; `options` is a function for options made once the page is open. */
async function goal(t: Parameters<typeof chrome.page>[0], path: string, options: Options | (() => Options) = {}) {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`sites/consent-platforms/${path}`))
  if (typeof options === 'function') options = options()
  const scripted = scriptedModel([{ operation: 'DONE' }])
  const result = await agent(page).goal('Add the watering can to the cart.', {
    decisions: scripted.model,
    text: textModel('unused'),
    evaluator: evaluatorModel(0.95),
    checklist: false,
    ...options,
  })
  return { page, scripted, result }
}

const answered = (page: Page) => page.evaluate(() => document.documentElement.dataset.consent ?? 'none')
const firstNames = (scripted: ScriptedModel) => scripted.seen[0]!.elements.map((element) => element.name)
/** What the first request showed of the page: its text and controls, as the model received them. */
const firstRequestChars = (scripted: ScriptedModel) => {
  const { page, elements } = scripted.seen[0]!
  return JSON.stringify({ page, elements }).length
}

test('off by default: the OneTrust banner is the first thing the model sees', async (t) => {
  const { scripted, result } = await goal(t, 'onetrust.html')
  t.is(result.status, 'success')
  t.is(result.consent, undefined)
  t.true(firstNames(scripted).includes('Reject all'))
  t.false(firstNames(scripted).includes('Add to cart'))
  t.log(`first request, banner shown: ${firstRequestChars(scripted)} characters`)
})

test('reject: OneTrust is refused before the first observation', async (t) => {
  const { page, scripted, result } = await goal(t, 'onetrust.html', { consent: 'reject' })
  t.is(result.status, 'success')
  t.like(result.consent, { action: 'reject', cmp: 'Onetrust', outcome: 'cleared' })
  t.true(result.consent!.ms < CONSENT_DEADLINE_MS)
  t.is(await answered(page), 'rejected')
  t.deepEqual(firstNames(scripted), ['Add to cart'])
  t.notRegex(scripted.seen[0]!.page.text, /cookies/)
  t.log(`first request, banner cleared: ${firstRequestChars(scripted)} characters, in ${result.consent!.ms} ms`)
})

test('accept: Didomi is accepted', async (t) => {
  const { page, scripted, result } = await goal(t, 'didomi.html', { consent: 'accept' })
  t.like(result.consent, { action: 'accept', cmp: 'didomi', outcome: 'cleared' })
  t.is(await answered(page), 'accepted')
  t.deepEqual(firstNames(scripted), ['Ajouter au panier'])
})

test('reject: Cookiebot, detected through its API in the page’s main world, is refused', async (t) => {
  const { page, scripted, result } = await goal(t, 'cookiebot.html', { consent: 'reject' })
  t.like(result.consent, { action: 'reject', cmp: 'Cybotcookiebot', outcome: 'cleared' })
  t.is(await answered(page), 'rejected')
  t.deepEqual(firstNames(scripted), ['In den Warenkorb'])
})

test('a banner the library cannot refuse is reported and the run goes on with it', async (t) => {
  // Without a refuse button, Didomi's opt-out calls window.Didomi, which this page lacks.
  const { page, scripted, result } = await goal(t, 'didomi-no-refuse.html', { consent: 'reject' })
  t.is(result.status, 'success')
  t.like(result.consent, { action: 'reject', cmp: 'didomi', outcome: 'failed' })
  t.is(await answered(page), 'none')
  t.true(firstNames(scripted).includes('Accepter'))
})

test('a page without a banner: none found, the run as usual', async (t) => {
  const { scripted, result } = await goal(t, 'plain.html', { consent: 'reject' })
  t.is(result.status, 'success')
  t.like(result.consent, { action: 'reject', cmp: null, outcome: 'none' })
  t.true(result.consent!.ms < CONSENT_DEADLINE_MS)
  t.deepEqual(firstNames(scripted), ['Add to cart'])
  t.log(`no banner found in ${result.consent!.ms} ms`)
})

test('a platform whose banner is closed (answered before): none, without waiting out the bound', async (t) => {
  const { scripted, result } = await goal(t, 'onetrust-answered.html', { consent: 'reject' })
  t.is(result.status, 'success')
  t.like(result.consent, { action: 'reject', cmp: 'Onetrust', outcome: 'none' })
  t.true(result.consent!.ms < CONSENT_DEADLINE_MS)
  t.deepEqual(firstNames(scripted), ['Add to cart'])
})

test('the run’s signal ends the run while the banner is being looked for', async (t) => {
  // The banner of this page is closed, so it is looked for 2 s after its platform is recognised.
  let started = 0
  const { scripted, result } = await goal(t, 'onetrust-answered.html', () => {
    started = performance.now()
    return { consent: 'reject', signal: AbortSignal.timeout(300) }
  })
  t.is(result.status, 'error')
  t.is(result.failure, 'aborted')
  t.is(scripted.seen.length, 0)
  t.true(performance.now() - started < 3_000)
})

test('a page cannot see or answer for the library: its globals live in the isolated world', async (t) => {
  const { page, result } = await goal(t, 'onetrust.html', { consent: 'reject' })
  t.is(result.consent!.outcome, 'cleared')
  t.deepEqual(
    await page.evaluate(() => [typeof (window as any).autoconsentReceiveMessage, typeof (window as any).autoconsentSendMessage]),
    ['undefined', 'undefined'],
  )
})

test('an invalid consent option is refused before anything runs', async (t) => {
  const page = await chrome.page(t)
  await t.throwsAsync(agent(page).goal('Anything.', { consent: 'dismiss' as never }), { message: /Invalid option "consent"/ })
})
