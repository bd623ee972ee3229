import test from 'ava'
import { score, stockValue, verdict } from '../scripts/extract/score.ts'
import { plainRules } from '../scripts/extract/plain-rules.ts'

// bench:extract scores with the product corpus's metric; these pin down how it reads each field.

test('a price is a decimal number, a SKU its letters and digits, a missing availability InStock', (t) => {
  t.is(verdict('price', 12.5, ['12.50']), 'right')
  t.is(verdict('price', 1250, ['12.50']), 'wrong')
  t.is(verdict('price', null, ['12.50']), 'missing')
  t.is(verdict('price', 3, undefined), 'extra')
  t.is(verdict('price', null, undefined), 'none')
  t.is(verdict('sku', '9249556', ['924/9556']), 'right')
  t.is(verdict('sku', 'SKU 9249556', ['924/9556']), 'wrong')
  t.is(verdict('availability', null, ['InStock']), 'right')
  t.is(verdict('availability', 'SoldOut', ['OutOfStock']), 'right')
  t.is(verdict('availability', 'PreOrder', ['OutOfStock']), 'wrong')
  t.is(stockValue('https://schema.org/Discontinued'), 'OutOfStock')
})

test('a wrong value counts against precision and recall; a missing one against recall', (t) => {
  t.deepEqual(score(['right', 'right', 'wrong', 'missing']), { precision: 2 / 3, recall: 2 / 4, f1: (2 * (2 / 3) * 0.5) / (2 / 3 + 0.5), support: 4 })
  t.is(score(['none', 'none']).f1, 0)
})

test('rules in the earlier language lose the readings, the new types and [] paths', (t) => {
  t.deepEqual(
    plainRules({
      price: { jsonld: 'Product.offers[].price', type: 'number', reduce: 'min' },
      sku: [{ selector: '[data-p]', attr: 'data-p', json: 'sku', type: 'code' }, { selector: '.c', attr: 'text', after: 'SKU' }],
    }),
    { price: { jsonld: 'Product.offers.price', type: 'number' }, sku: [{ selector: '[data-p]', attr: 'data-p' }, { selector: '.c', attr: 'text' }] },
  )
})
