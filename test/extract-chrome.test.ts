import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { useChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'
import { promptOf } from './helpers/language-models.ts'
import { CASES, CATALOG_PATH, typeIntoSearch } from './fixtures/extract/cases.ts'
import { textModel } from './fixtures/extract/text-model.ts'
import { OUTLINE_LIMITS, takeOutline } from '../src/extract/page-outline.ts'

const chrome = useChrome(test)
let server: FixtureServer
let sharedPage: Promise<Page> | undefined

test.before(async () => {
  server = await serveFixtures()
})

// One catalog page serves every read-only case (opened by the first test, once Chrome is up); tests that change or close a page open their own.
// The cases on it run serially: one agent call at a time on a page.
function catalog(): Promise<Page> {
  sharedPage ??= (async () => {
    const page = agent(await (await chrome.browser.createBrowserContext()).newPage())
    await page.goto(server.url(CATALOG_PATH))
    await page.evaluate(typeIntoSearch)
    return page
  })()
  return sharedPage
}

test.after.always(async () => {
  await server?.close()
})

for (const { title, rules, expected } of CASES) {
  test.serial(`chrome: ${title}`, async (t) => {
    const result = await ((await catalog()) as any).extract(rules)
    t.is(result.status, 'success', String(result.error))
    t.deepEqual(result.data, expected(server.url('/extract/shop/')))
  })
}

test.serial('chrome: a rule without a selector reads the text or the HTML of the whole page', async (t) => {
  const data = await agent.applyRules<{ text: string; html: string }>(await catalog(), { text: { attr: 'text' }, html: {} })
  t.true(data.text.startsWith('The Little Shop Fresh bread and cakes Rye loaf'))
  t.false(data.text.includes('ignored'))
  t.regex(data.html, /^<html lang="en"><head>/)
})

test.serial('chrome: the result has data and a profiling() with the rules and no request', async (t) => {
  const rules = { title: { selector: 'h1', attr: 'text' } }
  const result = await agent.extract(await catalog(), rules)
  t.is(result.status, 'success')
  t.deepEqual(result.data, { title: 'The Little Shop' })
  const profiling = await result.profiling()
  t.deepEqual(profiling.rules, rules)
  t.is(profiling.cost.calls, 0)
  t.is(profiling.cost.usd, 0)
  t.deepEqual(profiling.cost.generationIds, [])
  t.is(profiling.timing.modelMs, 0)
  t.true(profiling.timing.totalMs >= 0)
  t.is(await result.profiling(), profiling)
  t.deepEqual(JSON.parse(JSON.stringify(result)), { status: 'success', data: { title: 'The Little Shop' } })
})

test.serial('chrome: agent.applyRules gives the data itself', async (t) => {
  t.deepEqual(await agent.applyRules(await catalog(), { title: { selector: '#title', attr: 'text' } }), { title: 'The Little Shop' })
})

test.serial('chrome: an invalid selector rejects before anything runs, naming the field and the selector', async (t) => {
  const rules = { title: { selector: 'h1', attr: 'text' }, price: { selector: 'span[' } }
  const error = await t.throwsAsync(((await catalog()) as any).extract(rules), { instanceOf: UsageError })
  t.regex(error!.message, /field "price"/)
  t.regex(error!.message, /"span\["/)
  await t.throwsAsync(agent.applyRules(await catalog(), rules), { instanceOf: UsageError, message: /field "price"/ })
})

test('chrome: a page closed before the read resolves status error', async (t) => {
  const page = agent(await chrome.page(t))
  await page.goto(server.url(CATALOG_PATH))
  await page.close()
  const result = await page.extract({ title: { selector: 'h1', attr: 'text' } })
  t.is(result.status, 'error')
  t.true(result.error instanceof Error)
  t.is(result.data, undefined)
  t.is((await result.profiling()).cost.calls, 0)
})

test('chrome: the engine reads the live DOM, not the HTML that was loaded', async (t) => {
  const page = agent(await chrome.page(t))
  await page.goto(server.url(CATALOG_PATH))
  await page.evaluate(() => document.querySelector('.products')!.insertAdjacentHTML('beforeend', '<li class="product" data-id="p3"></li>'))
  const result = await page.extract({ ids: { selectorAll: '.product', attr: 'data-id' } })
  t.deepEqual(result.data, { ids: ['p1', 'p2', 'p3'] })
})

test('chrome: extract(instruction) reads with the rules the model wrote from the outline', async (t) => {
  const text = textModel({ rules: { products: { selectorAll: '.product', attr: { name: { selector: '.name' }, price: { selector: '.price', type: 'number' } } } } })
  const page = agent(await chrome.page(t), { text })
  await page.goto(server.url(CATALOG_PATH))
  const result = await page.extract('get the products and their prices')
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, { products: [{ name: 'Rye loaf', price: 16690 }, { name: 'Croissant', price: 1234.5 }] })
  t.true(promptOf(text).includes('li.product[data-id=\\"p2\\"]'))
})

test('chrome: the outline is taken once the page has stopped changing, with similar siblings folded', async (t) => {
  const page = await chrome.page(t)
  await page.goto(server.url('/extract/late.html'))
  const { outline, title } = await takeOutline(page)
  t.is(title, 'Late results')
  t.true(outline.includes('li.result[data-rank="1"]'), outline)
  t.true(outline.includes('… 3 more li.result like the ones above'), outline)
})

test('chrome: a form whose fields are named "id" and "className" is outlined by its attributes, not its fields', async (t) => {
  // In Chrome a form's named fields shadow its properties: form.id is the field named "id".
  const page = await chrome.page(t)
  await page.goto(server.url('/extract/late.html'))
  await page.evaluate(() => {
    document.body.innerHTML = '<form id="search" class="box"><input name="id" value="1"><input name="className"><button>Go</button></form>'
  })
  const { outline } = await takeOutline(page)
  t.true(outline.includes('form#search.box'), outline)
})

test('chrome: the outline of a 3,000-item page stays within its bound', async (t) => {
  const page = await chrome.page(t)
  await page.goto(server.url('/extract/late.html'))
  await page.evaluate(() => {
    let html = ''
    for (let i = 0; i < 3000; i++) html += `<div class="card" data-sku="s${i}"><h3 class="title">Product ${i}</h3><span class="price">${i},99 €</span></div>`
    document.body.innerHTML = `<main class="grid">${html}</main>`
  })
  const { outline } = await takeOutline(page)
  t.true(outline.length <= OUTLINE_LIMITS.maxChars)
  t.true(outline.includes('… 2997 more div.card like the ones above'))
})
