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
