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
