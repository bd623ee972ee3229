import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { CONSENT_DEADLINE_MS } from '../src/consent/dismiss-consent.ts'
import { useChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel } from './helpers/goal-scripted-model.ts'

// The consent step against a hostile "Reject all" control, in real Chrome: it never takes the page to
// another document, its bound holds whatever the control's handler does, and `result.consent` says what
// happened. Each banner is built like OneTrust's, so autoconsent recognises it and clicks that control.

const chrome = useChrome(test)

/** Requests the pages must never cause: the purchase posted, the other origin's page loaded. */
const reached = { purchases: 0, landing: 0 }
let site: FixtureServer | undefined
let other: FixtureServer | undefined
test.before(async () => {
  site = await serveFixtures({
    routes: [
      (req, res) => {
        if (req.url !== '/buy') return false
        reached.purchases += 1
        res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Thank you for your purchase</h1>')
        return true
      },
    ],
  })
  other = await serveFixtures({
    host: 'localhost',
    routes: [
      (req) => {
        if (req.url?.includes('landing.html')) reached.landing += 1
        return false
      },
    ],
  })
})
test.after.always(async () => {
  await site?.close()
  await other?.close()
})

/** Opens the fixture and runs a one-DONE goal on it with `consent: 'reject'`, timing the goal. */
async function goal(t: Parameters<typeof chrome.page>[0], path: string) {
  const page = await chrome.page(t)
  await page.goto(site!.url(`sites/consent-trust/${path}`))
  // A mark of this document: a new document, even at the same URL, does not have it.
  await page.evaluate(() => ((window as any).original = true))
  const scripted = scriptedModel([{ operation: 'DONE' }])
  const started = performance.now()
  const result = await agent(page).goal('Add the watering can to the cart.', {
    decisions: scripted.model,
    text: textModel('unused'),
    evaluator: evaluatorModel(0.95),
    checklist: false,
    consent: 'reject',
  })
  return { page, scripted, result, ms: performance.now() - started }
}

const sameDocument = (page: Page) => page.evaluate(() => (window as any).original === true)
const firstNames = (scripted: ReturnType<typeof scriptedModel>) => scripted.seen[0]!.elements.map((element) => element.name)

test('a "reject" link to another origin is not followed: the goal runs on the page it was given', async (t) => {
  const landing = other!.url('sites/consent-trust/landing.html')
  const { page, scripted, result } = await goal(t, `reject-link.html?to=${encodeURIComponent(landing)}`)
  t.like(result.consent, { action: 'reject', cmp: 'Onetrust', outcome: 'navigated', url: landing })
  t.is(result.status, 'success')
  t.true(await sameDocument(page))
  t.is(reached.landing, 0)
  // The model saw the shop with its banner still open, never the other site.
  t.true(firstNames(scripted).includes('Reject all'))
  t.false(firstNames(scripted).includes('Subscribe'))
})

test('a "reject" button that posts a purchase: the form is never sent', async (t) => {
  const { page, result } = await goal(t, 'reject-post.html')
  t.like(result.consent, { outcome: 'navigated', url: site!.url('buy') })
  t.is(result.status, 'success')
  t.true(await sameDocument(page))
  t.is(reached.purchases, 0)
})

test('a confirm raised by the "reject" control is dismissed: nothing is confirmed for the user', async (t) => {
  const { page, result } = await goal(t, 'reject-confirm.html')
  t.like(result.consent, { outcome: 'cleared', dialogs: 1 })
  t.is(await page.evaluate(() => document.documentElement.dataset.bought ?? 'no'), 'no')
  // The dialog belongs to the consent step, not to the run's first action.
  t.true(result.trace.every((entry) => !entry.dialogs?.length))
})

test('an alert() loop, without a signal: goal() ends at the bound with a clear error', async (t) => {
  const { result, ms } = await goal(t, 'reject-alert-loop.html')
  t.like(result.consent, { outcome: 'unresponsive', scriptStopped: true })
  t.true(result.consent!.dialogs! > 0)
  t.true(result.consent!.ms <= CONSENT_DEADLINE_MS + 250, `consent step took ${result.consent!.ms} ms`)
  t.is(result.status, 'error')
  t.is(result.failure, 'page_failed')
  t.regex(result.error!.message, /did not answer within 5000 ms of the consent step/)
  t.true(ms < CONSENT_DEADLINE_MS + 1_000, `goal took ${Math.round(ms)} ms`)
})

test('an 8 s busy handler is stopped at the bound and the goal goes on', async (t) => {
  const { page, scripted, result, ms } = await goal(t, 'reject-busy.html')
  t.like(result.consent, { outcome: 'timed_out', scriptStopped: true })
  t.true(result.consent!.ms <= CONSENT_DEADLINE_MS + 250, `consent step took ${result.consent!.ms} ms`)
  t.is(result.status, 'success')
  t.true(ms < CONSENT_DEADLINE_MS + 1_500, `goal took ${Math.round(ms)} ms`)
  t.true(await sameDocument(page))
  // The handler was stopped before it answered: the banner is left for the model.
  t.true(firstNames(scripted).includes('Reject all'))
})
