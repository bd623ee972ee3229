import test from 'ava'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { observe } from '../src/collector/observe.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'

// A shop page in real Chrome: a cookie banner's heading (first in the markup, fixed at the bottom)
// and a hidden menu heading must not become every product control's `nearby`.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

test('a cookie banner heading is not the nearby text of the shop controls, and the request stays small', async (t) => {
  const page = await chrome.page(t, { width: 1200, height: 900 })
  await page.goto(servers.site.url('/collector/shop-cookie.html'), { waitUntil: 'load' })
  const snapshot = await observe(page, {})
  t.teardown(() => snapshot.dispose())
  const { observation } = snapshot
  t.true(observation.elements.length >= 64, `${observation.elements.length} controls`)
  const products = observation.elements.filter((element) => /^(Gadget \d+|Add to cart)$/.test(element.name))
  t.is(products.length, 64)
  t.false(products.some((element) => /privacy|departments/.test(element.nearby ?? '')))
  t.regex(observation.elements.find((element) => element.name === 'Accept all')!.nearby ?? '', /^We value your privacy/, 'the banner keeps its heading for its own buttons')
  t.is(products.find((element) => element.name === 'Add to cart')!.nearby, 'Gadget 0 19,99 €')
  const { state } = buildDecisionRequest({ goal: 'Add Gadget 7 to the cart.', observation, recent: [] })
  // The page's part of the request (the questions' wording is the library's): about 6,500 characters,
  // though each product control carries its card's text; the banner's heading as every product's
  // nearby text added some 1,500.
  const size = JSON.stringify(state).length
  t.true(size < 7_000, `the state is ${size} characters`)
})
