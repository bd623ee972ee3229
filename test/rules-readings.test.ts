import test from 'ava'
import { callInDom, makeDom } from './helpers/jsdom.ts'
import type { Rules } from '../types/index.d.ts'

// Issue 28, items 2 to 5: offers read as lists with a reduction, a path inside a JSON attribute, the
// code after a label, and the currency, availability and code types, run by the bundled engine.

const OFFERS = {
  '@type': 'Product',
  sku: 'SU221-E11',
  offers: [
    { '@type': 'Offer', price: '99.99', availability: 'https://schema.org/OutOfStock' },
    { '@type': 'Offer', price: '74.95', availability: 'https://schema.org/InStock' },
    { '@type': 'Offer', price: 80, availability: 'http://schema.org/OutOfStock' },
  ],
}

const PAGE =
  `<head><script type="application/ld+json">${JSON.stringify(OFFERS)}</script></head><body>` +
  `<div class="product" data-product='{"sku":"A-1","variants":[{"sku":"V1","price":12.5},{"sku":"V2","price":9.99}]}' data-broken='{"sku":'>` +
  '<p class="code">Item no.: 12-345 (new)</p><p class="post">post id: 7221815683</p><p class="jp">〈商品編號：M67296549〉</p>' +
  '<a class="self" href="/kitchen/taller/TalleR_TR_1047-1609583.html">Taller</a>' +
  '<span class="price">£12.50</span><span class="dollars">$5</span><span class="stock">Ausverkauft</span>' +
  '<button class="buy" disabled>Add to cart</button><button class="buy2">In den Warenkorb</button>' +
  '<ul class="sizes"><li class="size" data-price="19,90 €">S</li><li class="size" data-price="17,90 €">M</li><li class="size" data-price="21,00 €">L</li></ul>' +
  '</div></body>'

function read(rules: Rules): Record<string, unknown> {
  const dom = makeDom(PAGE, { url: 'https://shop.example/p/1' })
  try {
    const outcome = callInDom(dom, 'rulesEngine', rules) as { ok: boolean; data: Record<string, unknown> }
    if (!outcome.ok) throw new Error(JSON.stringify(outcome))
    return outcome.data
  } finally {
    dom.window.close()
  }
}

test('a JSON-LD path with [] reads every offer: a list, or one value through a reduction', (t) => {
  t.deepEqual(
    read({
      prices: { jsonld: 'Product.offers[].price', type: 'number' },
      lowest: { jsonld: 'Product.offers[].price', type: 'number', reduce: 'min' },
      highest: { jsonld: 'Product.offers[].price', type: 'number', reduce: 'max' },
      first: { jsonld: 'Product.offers[].price', type: 'number', reduce: 'first' },
      stock: { jsonld: 'Product.offers[].availability', type: 'availability', reduce: 'any' },
      plain: { jsonld: 'Product.offers.availability', type: 'availability' },
    }),
    { prices: [99.99, 74.95, 80], lowest: 74.95, highest: 99.99, first: 99.99, stock: 'InStock', plain: 'OutOfStock' },
  )
})

test('"any" is the first value when no offer can be bought', (t) => {
  t.deepEqual(read({ stock: { jsonld: 'Product.offers[2].availability', type: 'availability', reduce: 'any' } }), { stock: 'OutOfStock' })
})

test('a reduction over selectorAll makes one value of the matches', (t) => {
  t.deepEqual(read({ lowest: { selectorAll: 'li.size', attr: 'data-price', type: 'number', reduce: 'min' }, all: { selectorAll: 'li.size', attr: 'data-price', type: 'number' } }), {
    lowest: 17.9,
    all: [19.9, 17.9, 21],
  })
})

test('"json" reads a path inside an attribute holding JSON; text that is not JSON reads nothing', (t) => {
  t.deepEqual(
    read({
      sku: { selector: '.product', attr: 'data-product', json: 'sku' },
      second: { selector: '.product', attr: 'data-product', json: 'variants[1].sku' },
      skus: { selector: '.product', attr: 'data-product', json: 'variants[].sku' },
      cheapest: { selector: '.product', attr: 'data-product', json: 'variants[].price', type: 'number', reduce: 'min' },
      broken: { selector: '.product', attr: 'data-broken', json: 'sku' },
      fallback: [{ selector: '.product', attr: 'data-broken', json: 'sku' }, { selector: '.product', attr: 'data-product', json: 'sku' }],
    }),
    { sku: 'A-1', second: 'V2', skus: ['V1', 'V2'], cheapest: 9.99, broken: null, fallback: 'A-1' },
  )
})

test('"after" keeps the code after a label, and "code" the code in a longer text or a URL', (t) => {
  t.deepEqual(
    read({
      item: { selector: '.code', attr: 'text', after: 'Item no.' },
      missing: { selector: '.code', attr: 'text', after: 'SKU' },
      post: { selector: '.post', attr: 'text', type: 'code' },
      japanese: { selector: '.jp', attr: 'text', type: 'code' },
      fromUrl: { selector: 'a.self', attr: 'href', type: 'code' },
    }),
    { item: '12-345', missing: null, post: '7221815683', japanese: 'M67296549', fromUrl: '1609583' },
  )
})

test('"currency" gives the ISO code where only one currency is meant', (t) => {
  t.deepEqual(read({ pound: { selector: '.price', attr: 'text', type: 'currency' }, dollar: { selector: '.dollars', attr: 'text', type: 'currency' } }), { pound: 'GBP', dollar: null })
})

test('"availability" reads stock words and a buy button by its state, whatever the rule points at', (t) => {
  t.deepEqual(
    read({
      words: { selector: '.stock', attr: 'text', type: 'availability' },
      disabled: { selector: 'button.buy', attr: 'text', type: 'availability' },
      enabled: { selector: 'button.buy2', attr: 'text', type: 'availability' },
      schema: { jsonld: 'Product.offers[1].availability', type: 'availability' },
    }),
    { words: 'SoldOut', disabled: 'OutOfStock', enabled: 'InStock', schema: 'InStock' },
  )
})
