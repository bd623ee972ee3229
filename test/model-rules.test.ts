import test from 'ava'
import { checkFillable, mergeRules, needsModel } from '../src/extract/merge-rules.ts'
import { fromModelRules, modelReplySchema } from '../src/extract/model-rules.ts'
import { validateRules } from '../src/extract/validate-rules.ts'

test('a model may write jsonld and meta rules; they get no attr, element rules still read the text', (t) => {
  const reply = modelReplySchema.parse({
    rules: {
      price: { jsonld: 'Product.offers.price', type: 'number', selector: null, attr: null },
      title: { meta: 'og:title' },
      name: { selector: 'h1' },
    },
  })
  const rules = fromModelRules(reply.rules)
  t.deepEqual(rules, {
    price: { jsonld: 'Product.offers.price', type: 'number' },
    title: { meta: 'og:title' },
    name: { selector: 'h1', attr: 'text' },
  })
  t.notThrows(() => validateRules(rules))
})

test('a model rule with anything but the rule properties is refused', (t) => {
  t.false(modelReplySchema.safeParse({ rules: { price: { jsonld: 'Product.offers.price', evaluate: 'x' } } }).success)
})

test('your jsonld and meta rules need no model; the model may answer your fields with them', (t) => {
  t.false(needsModel({ price: { jsonld: 'Product.offers.price', type: 'number' }, title: { meta: 'og:title' } }))
  t.true(needsModel({ price: { type: 'number' } }))
  t.notThrows(() => checkFillable({ price: [{ jsonld: 'Product.offers.price' }, { selector: '.price' }] }))
  const merged = mergeRules(
    { price: { type: 'number' }, link: { attr: 'href', type: 'url' }, mine: { meta: 'sku' } },
    { price: { jsonld: 'Product.offers.price', type: 'string' }, link: { meta: 'og:url' } },
  )
  // Your type wins; a jsonld or meta source reads no element, so your attr does not apply to it.
  t.deepEqual(merged, {
    price: { jsonld: 'Product.offers.price', type: 'number' },
    link: { meta: 'og:url', type: 'url' },
    mine: { meta: 'sku' },
  })
  t.notThrows(() => validateRules(merged))
})

test('a model may give a field fallbacks and the readings json, after and reduce; your type and attr still win', (t) => {
  const reply = modelReplySchema.parse({
    rules: {
      price: [
        { jsonld: 'Product.offers[].price', reduce: 'min' },
        { selector: '.price', type: 'string' },
      ],
      sku: { selector: '[data-product]', attr: 'data-product', json: 'sku', after: null, reduce: null },
      code: { selector: '.code', after: 'Item no.' },
    },
  })
  const merged = mergeRules({ price: { type: 'number' }, sku: { type: 'code' }, code: { attr: 'text' } }, reply.rules)
  t.deepEqual(merged, {
    price: [
      { jsonld: 'Product.offers[].price', type: 'number', reduce: 'min' },
      { selector: '.price', attr: 'text', type: 'number' },
    ],
    sku: { selector: '[data-product]', attr: 'data-product', type: 'code', json: 'sku' },
    code: { selector: '.code', attr: 'text', after: 'Item no.' },
  })
  t.notThrows(() => validateRules(merged))
  t.deepEqual(fromModelRules(reply.rules).price, [
    { jsonld: 'Product.offers[].price', reduce: 'min' },
    { selector: '.price', attr: 'text', type: 'string' },
  ])
})

test('a reply with more than four fallbacks for a field, or an unknown reduce, is refused', (t) => {
  t.false(modelReplySchema.safeParse({ rules: { price: Array.from({ length: 5 }, () => ({ selector: '.p' })) } }).success)
  t.false(modelReplySchema.safeParse({ rules: { price: { selector: '.p', reduce: 'sum' } } }).success)
  t.false(modelReplySchema.safeParse({ rules: { price: [] } }).success)
})
