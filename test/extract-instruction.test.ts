import test from 'ava'
import { readFileSync } from 'node:fs'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { UsageError } from '../src/errors.ts'
import { RULES_MATCHED_NOTHING, UNUSABLE_RULES } from '../src/extract/rule-writer.ts'
import { domPage } from './helpers/dom-page.ts'
import { FIXTURES } from './helpers/fixture-server.ts'
import { promptOf, replyingModel } from './helpers/language-models.ts'
import { CATALOG_PATH } from './fixtures/extract/cases.ts'
import { textModel } from './fixtures/extract/text-model.ts'

const ORIGIN = 'http://127.0.0.1:4321'
const BASE = `${ORIGIN}/extract/shop/`
const html = readFileSync(`${FIXTURES}${CATALOG_PATH.slice(1)}`, 'utf8')

/** The catalog in jsdom behind a Page-like `evaluate`, counting evaluations. */
function catalog(): Page & { evaluations: number } {
  return domPage(html, { url: `${ORIGIN}${CATALOG_PATH}` })
}

const PRODUCTS_REPLY = {
  rules: {
    products: {
      selectorAll: 'li.product',
      attr: {
        name: { selector: 'h2.name' },
        price: { selector: '.price', type: 'number' },
        url: { selector: 'a.link', attr: 'href', type: 'url' },
      },
    },
  },
}

test('extract(instruction): the model writes the rules and the data comes from the page', async (t) => {
  const text = textModel(PRODUCTS_REPLY)
  const result = await agent(catalog(), { text }).extract('get the products with name, price and link')
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, {
    products: [
      { name: 'Rye loaf', price: 16690, url: `${BASE}rye.html` },
      { name: 'Croissant', price: 1234.5, url: null },
    ],
  })
  t.is(text.doGenerateCalls.length, 1)
  const profiling = await result.profiling()
  // A model rule without attr reads the text.
  t.deepEqual(profiling.rules, {
    products: {
      selectorAll: 'li.product',
      attr: {
        name: { selector: 'h2.name', attr: 'text' },
        price: { selector: '.price', attr: 'text', type: 'number' },
        url: { selector: 'a.link', attr: 'href', type: 'url' },
      },
    },
  })
  t.is(profiling.cost.calls, 1)
  t.is(profiling.cost.inputTokens, 1200)
  t.is(profiling.cost.usd, 0.00042)
  t.deepEqual(profiling.cost.generationIds, ['gen_rules_1'])
})

test('the rules in profiling() run again without a request', async (t) => {
  const page = agent(catalog(), { text: textModel(PRODUCTS_REPLY) })
  const first = await page.extract('get the products')
  const { rules } = await first.profiling()
  const again = await page.extract(rules!)
  t.deepEqual(again.data, first.data)
  t.is((await again.profiling()).cost.calls, 0)
})

test('the request carries the instruction, the outline and the advice about generated class names', async (t) => {
  const text = textModel(PRODUCTS_REPLY)
  await agent(catalog(), { text, reasoning: 'low' }).extract('get the products')
  const call = text.doGenerateCalls[0]
  const prompt = promptOf(text)
  t.true(prompt.includes('Instruction: get the products'))
  t.true(prompt.includes('li.product[data-id=\\"p1\\"]'))
  t.true(prompt.includes('h2.name \\"Rye loaf\\"'))
  t.true(prompt.includes('Prefer stable hooks'))
  t.true(prompt.includes('generated'))
  t.is(call.reasoning, 'low')
  t.is(call.responseFormat?.type, 'json')
})

test('extract(instruction, rules): the model fills in only the selectors; your type and attr win', async (t) => {
  const text = textModel({
    rules: {
      products: {
        selectorAll: 'li.product',
        attr: {
          name: { selector: 'h2.name', attr: 'html', type: 'number' },
          price: { selector: '.price', type: 'string' },
          link: { selector: 'a.link', attr: 'href' },
          extra: { selector: 'img' },
        },
      },
      unasked: { selector: 'h1' },
    },
  })
  const result = await agent(catalog(), { text }).extract('get the products', {
    products: { attr: { name: { type: 'string', attr: 'text' }, price: { type: 'number' }, link: { type: 'url' } } },
  })
  t.is(result.status, 'success', String(result.error))
  t.deepEqual(result.data, {
    products: [
      { name: 'Rye loaf', price: 16690, link: `${BASE}rye.html` },
      { name: 'Croissant', price: 1234.5, link: null },
    ],
  })
  t.deepEqual((await result.profiling()).rules, {
    products: {
      selectorAll: 'li.product',
      attr: {
        name: { selector: 'h2.name', attr: 'text', type: 'string' },
        price: { selector: '.price', attr: 'text', type: 'number' },
        link: { selector: 'a.link', attr: 'href', type: 'url' },
      },
    },
  })
  t.true(promptOf(text).includes('Use exactly these fields'))
})

test('a rule of yours with its own selector is kept untouched next to fields the model fills', async (t) => {
  const text = textModel({ rules: { title: { selector: 'h2' }, heading: { selector: 'p' } } })
  const result = await agent(catalog(), { text }).extract('get the title and heading', {
    title: { type: 'string' },
    heading: { selector: 'h1', attr: 'text' },
  })
  t.deepEqual(result.data, { title: 'Rye loaf', heading: 'The Little Shop' })
})

test('rules with a selector for every field run as they are, with no request', async (t) => {
  const text = textModel(PRODUCTS_REPLY)
  const page = catalog()
  const result = await agent(page, { text }).extract('get the title', { title: { selector: 'h1', attr: 'text' } })
  t.deepEqual(result.data, { title: 'The Little Shop' })
  t.is(text.doGenerateCalls.length, 0)
  t.is(page.evaluations, 1)
  t.is((await result.profiling()).cost.calls, 0)
})

test('a reply that omits one of your fields is an error', async (t) => {
  const text = textModel({ rules: { products: { selectorAll: 'li.product', attr: { name: { selector: 'h2' } } } } })
  const result = await agent(catalog(), { text }).extract('get the products', {
    products: { attr: { name: { type: 'string' }, price: { type: 'number' } } },
  })
  t.is(result.status, 'error')
  t.regex(result.error!.message, /no rule for the field "products\.price"/)
  t.is(result.data, undefined)
})

test('a reply that nests where you did not is an error', async (t) => {
  const text = textModel({ rules: { price: { selector: '.product', attr: { amount: { selector: '.price' } } } } })
  const result = await agent(catalog(), { text }).extract('get the price', { price: { type: 'number' } })
  t.is(result.status, 'error')
  t.regex(result.error!.message, /"price" has nested rules where yours has none/)
})

test('a reply that does not nest where you did is an error', async (t) => {
  const text = textModel({ rules: { products: { selectorAll: 'li.product' } } })
  const result = await agent(catalog(), { text }).extract('get the products', { products: { attr: { name: { type: 'string' } } } })
  t.is(result.status, 'error')
  t.regex(result.error!.message, /"products" has no nested rules/)
})

test('an invalid selector from the model is "The model did not write usable extraction rules."', async (t) => {
  const result = await agent(catalog(), { text: textModel({ rules: { title: { selector: 'h1:contains("Shop")' } } }) }).extract('get the title')
  t.is(result.status, 'error')
  t.is(result.error!.message, UNUSABLE_RULES)
  t.regex(String((result.error as any).cause), /field "title"/)
  t.deepEqual((await result.profiling()).rules, { title: { selector: 'h1:contains("Shop")', attr: 'text' } })
})

test('empty rules from the model are not usable', async (t) => {
  const result = await agent(catalog(), { text: textModel({ rules: {} }) }).extract('get the title')
  t.is(result.status, 'error')
  t.is(result.error!.message, UNUSABLE_RULES)
})

test('rules that give no value at all are "The rules the model wrote matched nothing on the page."', async (t) => {
  const result = await agent(catalog(), {
    text: textModel({ rules: { items: { selectorAll: '.result', attr: { name: { selector: '.title' } } }, title: { selector: '#headline' } } }),
  }).extract('get the results')
  t.is(result.status, 'error')
  t.is(result.error!.message, RULES_MATCHED_NOTHING)
  t.is(result.data, undefined)
})

/** The prompt of the model's `n`th request (from 0), as JSON text. */
const promptAt = (model: { doGenerateCalls: { prompt: unknown }[] }, n: number) => JSON.stringify(model.doGenerateCalls[n]?.prompt ?? null)

test('a reply that cannot be used is asked for once more, told why; the second reply’s rules run', async (t) => {
  const mended = { rules: { title: { selector: 'h1' } } }
  const cases: [string, unknown, RegExp][] = [
    ['a selector the browser refuses', { rules: { title: { selector: 'h1:contains("Shop")' } } }, /not valid CSS/],
    ['rules that match nothing', { rules: { title: { selector: '#headline' } } }, /no rule matched anything on the page/],
    ['a reply with code in it', { rules: { title: { selector: 'h1', evaluate: 'fetch("https://evil.example")' } } }, /could not be used: rules\.title/],
    ['a reply that is not JSON', 'Sure! Here are your rules', /could not be used: /],
  ]
  for (const [name, first, reason] of cases) {
    const text = replyingModel([first, mended])
    const page = catalog()
    const result = await agent(page, { text }).extract('get the title')
    t.is(result.status, 'success', name)
    t.deepEqual(result.data, { title: 'The Little Shop' }, name)
    t.is(text.doGenerateCalls.length, 2, name)
    t.is((await result.profiling()).cost.calls, 2, name)
    const again = promptAt(text, 1)
    t.regex(again, /Your last reply could not be used/, name)
    t.regex(again, reason, name)
    // The same outline, taken once.
    t.true(again.includes('Outline:'), name)
    t.false(promptAt(text, 0).includes('could not be used'), name)
  }
})

test('a second reply that cannot be used fails the extraction as the first would have; no third is asked for', async (t) => {
  const text = textModel({ rules: { title: { selector: 'h1:contains("Shop")' } } })
  const result = await agent(catalog(), { text }).extract('get the title')
  t.is(result.status, 'error')
  t.is(result.error!.message, UNUSABLE_RULES)
  t.is(text.doGenerateCalls.length, 2)
  // What the model is shown of its last reply is bounded, however long the reply.
  const longReply = { rules: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`field${i}`, { selector: `#missing-${'x'.repeat(150)}-${i}` }])) }
  t.true(JSON.stringify(longReply).length > 6_000)
  const long = textModel(longReply)
  const failed = await agent(catalog(), { text: long }).extract('get everything')
  t.is(failed.error!.message, RULES_MATCHED_NOTHING)
  t.true(promptAt(long, 1).length < promptAt(long, 0).length + 6_000)
})

test('a model reply with evaluate is rejected and nothing is read with it', async (t) => {
  const page = catalog()
  const result = await agent(page, { text: textModel({ rules: { title: { selector: 'h1', evaluate: 'fetch("https://evil.example")' } } }) }).extract(
    'get the title',
  )
  t.is(result.status, 'error')
  t.regex(result.error!.name, /NoObjectGeneratedError/)
  t.is((await result.profiling()).rules, undefined)
  t.is(page.evaluations, 2, 'only the document was marked (see document-pin.ts) and the outline taken')
})

test('a model reply with any other property or an unknown type is rejected', async (t) => {
  for (const rules of [{ title: { selector: 'h1', xpath: '//h1' } }, { title: { selector: 'h1', type: 'money' } }, { title: 'h1' }]) {
    const result = await agent(catalog(), { text: textModel({ rules }) }).extract('get the title')
    t.is(result.status, 'error')
    t.regex(result.error!.name, /NoObjectGeneratedError/)
  }
})

test('a reply that is not JSON is an error', async (t) => {
  const result = await agent(catalog(), { text: textModel('Sure! Here are your rules') }).extract('get the title')
  t.is(result.status, 'error')
  t.regex(result.error!.name, /NoObjectGeneratedError/)
})

test('options go last after an instruction; an invalid option throws naming it', async (t) => {
  const text = textModel(PRODUCTS_REPLY)
  const page = agent(catalog())
  t.is((await page.extract('get the products', { text })).status, 'success')
  t.is((await page.extract('get the products', null, { text })).status, 'success')
  await t.throwsAsync(page.extract('get the products', { text, timeout: -1 }), { instanceOf: UsageError, message: /Invalid option "timeout"/ })
  await t.throwsAsync(page.extract('get the products', { products: {} }, { text: 42 } as any), { instanceOf: UsageError, message: /Invalid option "text"/ })
  await t.throwsAsync((page.extract as any)('x', {}, {}, {}), { instanceOf: UsageError, message: /at most 3 arguments/ })
})

test('rules passed with an instruction are always checked, even for a custom engine', async (t) => {
  const page = agent(catalog(), { text: textModel(PRODUCTS_REPLY), extractor: () => 'custom' })
  await t.throwsAsync(page.extract('get it', { title: { evaluate: 'x' } } as any), { instanceOf: UsageError, message: /"evaluate" is not supported/ })
  await t.throwsAsync(page.extract('get it', { title: [{ selector: 'h1' }, { type: 'string' }] }), {
    instanceOf: UsageError,
    message: /field "title": with an instruction, a list of fallback rules needs a selector in every rule/,
  })
})

test('with a custom engine the written rules are tried on the page, then the engine runs them', async (t) => {
  const seen: unknown[] = []
  const page = agent(catalog(), {
    text: textModel(PRODUCTS_REPLY),
    extractor: (_page, rules) => {
      seen.push(rules)
      return 'from the engine'
    },
  })
  const result = await page.extract('get the products')
  t.is(result.data, 'from the engine')
  t.deepEqual(seen, [(await result.profiling()).rules])
  const failed = await page.extract('get the title', { title: { type: 'string' } }, { text: textModel({ rules: { title: { selector: '#nothing' } } }) })
  t.is(failed.error?.message, RULES_MATCHED_NOTHING)
  t.is(seen.length, 1)
})

test('the text model of the call overrides the default; undefined keeps it', async (t) => {
  const byDefault = textModel(PRODUCTS_REPLY)
  const byCall = textModel({ rules: { title: { selector: 'h1' } } })
  const page = agent(catalog(), { text: byDefault })
  t.deepEqual((await page.extract('get the title', { text: byCall })).data, { title: 'The Little Shop' })
  t.is((await page.extract('get the products', { text: undefined })).status, 'success')
  t.is(byDefault.doGenerateCalls.length, 1)
  t.is(byCall.doGenerateCalls.length, 1)
})

test('an aborted signal resolves status error without a request', async (t) => {
  const text = textModel(PRODUCTS_REPLY)
  const page = catalog()
  const result = await agent(page, { text }).extract('get the products', { signal: AbortSignal.abort(new Error('cancelled')) })
  t.is(result.status, 'error')
  t.is(result.error?.message, 'cancelled')
  t.is(text.doGenerateCalls.length, 0)
  t.is(page.evaluations, 0)
})
