import test from 'ava'
import { readFileSync } from 'node:fs'
import { callInDom, makeDom, runInDom } from './helpers/jsdom.ts'
import { FIXTURES } from './helpers/fixture-server.ts'
import { CASES, CATALOG_PATH, typeIntoSearch } from './fixtures/extract/cases.ts'
import type { Rules } from '../types/index.d.ts'

const ORIGIN = 'http://127.0.0.1:4321'
const html = readFileSync(`${FIXTURES}${CATALOG_PATH.slice(1)}`, 'utf8')

function catalog() {
  const dom = makeDom(html, { url: `${ORIGIN}${CATALOG_PATH}` })
  runInDom(dom, typeIntoSearch)
  return dom
}

for (const { title, rules, expected } of CASES) {
  test(`jsdom: ${title}`, (t) => {
    t.deepEqual(callInDom(catalog(), 'rulesEngine', rules), { ok: true, data: expected(`${ORIGIN}/extract/shop/`) })
  })
}

test('jsdom: a rule without a selector reads the text or the HTML of the whole page', (t) => {
  const outcome = callInDom(catalog(), 'rulesEngine', { text: { attr: 'text' }, html: {} }) as any
  t.true(outcome.ok)
  t.true(outcome.data.text.startsWith('The Little Shop Fresh bread and cakes Rye loaf'))
  t.false(outcome.data.text.includes('ignored'), 'script text is not page text')
  t.false(outcome.data.text.includes('color'), 'style text is not page text')
  t.regex(outcome.data.html, /^<html lang="en"><head>/)
})

test('jsdom: an invalid selector stops the run before anything is read, naming the field', (t) => {
  const dom = catalog()
  // Counts attribute reads: nothing may be read once a selector is found bad.
  let reads = 0
  const original = dom.window.Element.prototype.getAttribute
  dom.window.Element.prototype.getAttribute = function (this: Element, name: string) {
    reads++
    return original.call(this, name)
  }
  const rules: Rules = { lang: { attr: 'lang' }, products: { selectorAll: '.product', attr: { price: [{ selector: '.price' }, { selector: 'span[' }] } } }
  const outcome = callInDom(dom, 'rulesEngine', rules) as any
  t.is(outcome.ok, false)
  t.is(outcome.field, 'products.price[1]')
  t.is(outcome.selector, 'span[')
  t.truthy(outcome.message)
  t.is(reads, 0)
})

test('jsdom: jQuery extensions such as :contains() are invalid selectors', (t) => {
  const outcome = callInDom(catalog(), 'rulesEngine', { name: { selector: 'h2:contains("Rye")' } }) as any
  t.is(outcome.ok, false)
  t.is(outcome.field, 'name')
})

test('jsdom: a <base> element decides what url resolves against', (t) => {
  const dom = makeDom('<base href="https://cdn.example/assets/"><a href="x/y.html">y</a>', { url: `${ORIGIN}/page.html` })
  t.deepEqual(callInDom(dom, 'rulesEngine', { link: { selector: 'a', attr: 'href', type: 'url' } }), {
    ok: true,
    data: { link: 'https://cdn.example/assets/x/y.html' },
  })
})

test('jsdom: type image takes the first candidate of a srcset and rejects javascript: and non-image data URLs', (t) => {
  const dom = makeDom(
    '<img id="a" srcset="small.png 1x, large.png 2x"><img id="b" src="javascript:alert(1)"><img id="c" src="data:text/html,hi"><img id="d" src="data:image/png;base64,AAAA">',
    { url: `${ORIGIN}/p/` },
  )
  const rules: Rules = {
    a: { selector: '#a', attr: 'srcset', type: 'image' },
    b: { selector: '#b', attr: 'src', type: 'image' },
    c: { selector: '#c', attr: 'src', type: 'image' },
    d: { selector: '#d', attr: 'src', type: 'image' },
  }
  t.deepEqual(callInDom(dom, 'rulesEngine', rules), {
    ok: true,
    data: { a: `${ORIGIN}/p/small.png`, b: null, c: null, d: 'data:image/png;base64,AAAA' },
  })
})

const product = readFileSync(`${FIXTURES}extract/product-jsonld.html`, 'utf8')

test('jsdom: a price that is only in JSON-LD is read by a jsonld rule; JSON-LD that is not JSON is skipped, never run', (t) => {
  const dom = makeDom(product, { url: `${ORIGIN}/p/rye.html` })
  const rules: Rules = {
    price: [{ selector: '.price', attr: 'text', type: 'number' }, { jsonld: 'Product.offers.price', type: 'number' }],
    currency: { jsonld: 'Product.offers[0].priceCurrency' },
    brand: { jsonld: 'Product.brand.name' },
    availability: { jsonld: 'Product.offers.availability', type: 'url' },
    title: { meta: 'og:title' },
    description: { meta: 'DESCRIPTION' },
    sku: { meta: 'sku' },
  }
  t.deepEqual(callInDom(dom, 'rulesEngine', rules), {
    ok: true,
    data: {
      price: 89.9,
      currency: 'RON',
      brand: 'Old Mill',
      availability: 'https://schema.org/InStock',
      title: 'Rye loaf (og)',
      description: 'A dark rye loaf',
      sku: 'RYE-1',
    },
  })
  t.is((dom.window as any).ranFromJsonLd, undefined)
})

test('jsdom: JSON-LD nested far too deep or holding huge lists is read without overflowing the stack', (t) => {
  const deep = `${'['.repeat(50_000)}{"@type":"Product","offers":{"price":7}}${']'.repeat(50_000)}`
  const wide = JSON.stringify({ '@type': 'ItemList', itemListElement: Array.from({ length: 200_000 }, (_, i) => i) })
  const dom = makeDom(`<script type="application/ld+json">${wide}</script><script type="application/ld+json">${deep}</script>`)
  t.deepEqual(callInDom(dom, 'rulesEngine', { price: { jsonld: 'Product.offers.price', type: 'number' }, first: { jsonld: 'ItemList.itemListElement[3]' } }), {
    ok: true,
    data: { price: 7, first: 3 },
  })
})

test('jsdom: a JSON number from JSON-LD is kept exactly, not read as text', (t) => {
  const dom = makeDom('<script type="application/ld+json">{"@type":"Product","offers":{"price":1234.567},"inStock":true}</script>')
  const rules: Rules = {
    price: { jsonld: 'Product.offers.price', type: 'number' },
    plain: { jsonld: 'Product.offers.price' },
    text: { jsonld: 'Product.offers.price', type: 'string' },
    inStock: { jsonld: 'Product.inStock' },
  }
  t.deepEqual(callInDom(dom, 'rulesEngine', rules), { ok: true, data: { price: 1234.567, plain: 1234.567, text: '1234.567', inStock: true } })
})

test('jsdom: a jsonld path never reaches an object prototype', (t) => {
  // Validation refuses these names; the engine itself reads own properties only.
  const dom = makeDom('<script type="application/ld+json">{"@type":"Product","offers":{"price":1}}</script>')
  t.deepEqual(callInDom(dom, 'rulesEngine', { a: { jsonld: 'Product.constructor.name' }, b: { jsonld: 'Product.offers.toString' } }), {
    ok: true,
    data: { a: null, b: null },
  })
})
