import test from 'ava'
import { UsageError } from '../src/errors.ts'
import { MAX_RULE_DEPTH, MAX_RULES, RESERVED_FIELDS, validateRules } from '../src/extract/validate-rules.ts'

const rejects: [title: string, rules: unknown, message: RegExp][] = [
  ['rules that are not an object', 'h1', /Rules must be an object of fields, got "h1"/],
  ['rules with no fields', {}, /Rules have no fields/],
  ['an unknown property, naming it and the field', { title: { selector: 'h1', atr: 'text' } }, /field "title": unknown property "atr"/],
  ['evaluate', { title: { evaluate: 'document.title' } }, /field "title": "evaluate" is not supported/],
  ['evaluate in a nested rule', { items: { selectorAll: 'li', attr: { name: { evaluate: '1' } } } }, /field "items\.name": "evaluate"/],
  ['an unknown type, naming the known ones', { price: { selector: '.p', type: 'money' } }, /field "price": unknown type "money" \(known types: number, url, image, date, string, currency, availability, code\)/],
  ['selector and selectorAll together', { a: { selector: 'a', selectorAll: 'a' } }, /field "a": a rule has either "selector" or "selectorAll"/],
  ['an empty selector', { a: { selector: ' ' } }, /field "a": "selector" must be a non-empty CSS selector/],
  ['a selector that is not a string', { a: { selectorAll: 3 } }, /field "a": "selectorAll" must be a non-empty CSS selector, got 3/],
  ['a rule that is not an object', { a: 'h1' }, /field "a": expected a rule object or a list of rule objects, got "h1"/],
  ['an empty fallback list', { a: [] }, /field "a": the list of fallback rules is empty/],
  ['an unknown reduce, naming the known ones', { a: { selectorAll: 'li', reduce: 'sum' } }, /field "a": unknown reduce "sum" \(known: first, min, max, any\)/],
  ['a reduce over nested rules', { a: { selectorAll: 'li', reduce: 'first', attr: { b: {} } } }, /field "a": "reduce" makes one value of several: it does not apply to nested rules/],
  ['a json path that is not one', { a: { selector: 'div', attr: 'data-x', json: 'a..b' } }, /field "a": "json" must be a dotted path such as "sku"/],
  ['a json path through __proto__', { a: { selector: 'div', attr: 'data-x', json: 'a.__proto__' } }, /field "a": "json" may not step through "__proto__"/],
  ['a json rule on JSON-LD', { a: { jsonld: 'Product.sku', json: 'sku' } }, /field "a": a "jsonld" rule reads the page's metadata: it has no "json"/],
  ['an empty after', { a: { selector: 'p', after: ' ' } }, /field "a": "after" must be a non-empty string/],
  ['an after too long', { a: { selector: 'p', after: 'x'.repeat(201) } }, /field "a": "after" is 201 characters long; at most 200 are allowed/],
  ['an after on nested rules', { a: { selectorAll: 'li', after: 'SKU', attr: { b: {} } } }, /field "a": "after" reads a value: it does not apply to nested rules/],
  ['a bad fallback, naming its place in the list', { a: [{ selector: 'a' }, { selector: 'b', type: 'nope' }] }, /field "a\[1\]": unknown type "nope"/],
  ['an empty attr list', { a: { attr: [] } }, /field "a": "attr" is an empty list/],
  ['a non-string in an attr list', { a: { attr: ['href', 1] } }, /field "a": every "attr" in a list must be a non-empty string, got 1/],
  ['an attr of the wrong kind', { a: { attr: 1 } }, /field "a": "attr" must be a string, a list of strings or nested rules, got 1/],
  ['a type next to nested rules', { a: { selectorAll: 'li', type: 'number', attr: { b: {} } } }, /field "a": "type" does not apply to nested rules/],
  ['nested rules with no fields', { a: { selectorAll: 'li', attr: {} } }, /field "a": nested rules have no fields/],
  ['jsonld with a selector', { p: { selector: '.p', jsonld: 'Product.offers.price' } }, /field "p": a "jsonld" rule reads the page's metadata: it has no "selector"/],
  ['jsonld with an attr', { p: { jsonld: 'Product.offers.price', attr: 'text' } }, /field "p": a "jsonld" rule .* no "attr"/],
  ['meta with selectorAll', { p: { selectorAll: 'li', meta: 'og:title' } }, /field "p": a "meta" rule .* no "selectorAll"/],
  ['jsonld and meta together', { p: { jsonld: 'Product.name', meta: 'og:title' } }, /field "p": a "jsonld" rule .* no "meta"/],
  ['an empty meta', { p: { meta: ' ' } }, /field "p": "meta" must be a non-empty string, got " "/],
  ['a jsonld that is not a string', { p: { jsonld: ['Product', 'name'] } }, /field "p": "jsonld" must be a non-empty string/],
  ['a jsonld that is a type alone', { p: { jsonld: 'Product' } }, /field "p": "jsonld" must be a type and a dotted path such as "Product\.offers\.price"/],
  ['a jsonld with an empty step', { p: { jsonld: 'Product..price' } }, /"jsonld" must be a type and a dotted path/],
  ['a jsonld with a bad index', { p: { jsonld: 'Product.offers[x].price' } }, /"jsonld" must be a type and a dotted path/],
  ['a jsonld with a space', { p: { jsonld: 'Product.offers price' } }, /"jsonld" must be a type and a dotted path/],
  ['a jsonld through __proto__', { p: { jsonld: 'Product.__proto__.price' } }, /field "p": "jsonld" may not step through "__proto__"/],
  ['a jsonld through constructor, after an index', { p: { jsonld: 'Product.offers[0].constructor' } }, /"jsonld" may not step through "constructor"/],
  ['a jsonld from prototype', { p: { jsonld: 'prototype.name' } }, /"jsonld" may not step through "prototype"/],
  ['a meta name too long', { p: { meta: 'x'.repeat(201) } }, /field "p": "meta" is 201 characters long; at most 200 are allowed/],
  ['a bad jsonld in a nested rule', { items: { selectorAll: 'li', attr: { p: { jsonld: 'Product' } } } }, /field "items\.p": "jsonld" must be/],
]

for (const [title, rules, message] of rejects) {
  test(`rejects ${title}`, (t) => {
    t.throws(() => validateRules(rules), { instanceOf: UsageError, message })
  })
}

test('accepts every documented form', (t) => {
  t.notThrows(() =>
    validateRules({
      page: {},
      title: { selector: 'h1', attr: 'text', type: 'string' },
      photo: { selector: 'img', attr: ['src', 'data-src'], type: 'image' },
      heading: [{ selector: 'h1' }, { selector: 'h2', attr: 'text' }],
      items: { selectorAll: 'li', attr: { name: { attr: 'text' }, price: { selector: '.p', type: 'number' }, tags: { selectorAll: '.t', attr: 'text' }, sku: { meta: 'sku' } } },
      price: [{ jsonld: 'Product.offers.price', type: 'number' }, { selector: '.price', attr: 'text', type: 'number' }],
      image: { jsonld: 'Product.image[1]', type: 'image' },
      position: { jsonld: 'BreadcrumbList.itemListElement[2].item.@id', type: 'url' },
      ogTitle: { meta: 'og:title' },
      lowest: { jsonld: 'Product.offers[].price', type: 'number', reduce: 'min' },
      stock: [{ jsonld: 'Product.offers[].availability', type: 'availability', reduce: 'any' }, { selector: 'button.buy', attr: 'text', type: 'availability' }],
      sku: [{ selector: '[data-product]', attr: 'data-product', json: 'variants[0].sku', type: 'code' }, { selector: '.code', attr: 'text', after: 'Item no.' }],
      currency: { selector: '.price', attr: 'text', type: 'currency' },
    }),
  )
})

/** `depth` levels of fields: a list in a list…, one field at the bottom. */
function nested(depth: number): Record<string, unknown> {
  let rules: Record<string, unknown> = { leaf: { selector: 'h1' } }
  for (let level = 1; level < depth; level++) rules = { items: { selectorAll: 'ul', attr: rules } }
  return rules
}

/** `count` fields side by side. */
function wide(count: number): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, { selector: 'p' }]))
}

test(`rules nest at most ${MAX_RULE_DEPTH} levels; deeper ones are refused, naming the depth, the field and the limit`, (t) => {
  t.notThrows(() => validateRules(nested(MAX_RULE_DEPTH)))
  const error = t.throws(() => validateRules(nested(MAX_RULE_DEPTH + 1)), { instanceOf: UsageError })
  t.is(error!.message, `Rules nest 13 levels deep (in field "${Array(12).fill('items').join('.')}"); at most 12 levels are allowed.`)
  t.throws(() => validateRules(nested(150)), { instanceOf: UsageError, message: /^Rules nest 150 levels deep \(in field "items\.items.*…/ })
})

test('rules nested far too deep, or shared over and over, are refused without overflowing the stack or counting for ages', (t) => {
  t.throws(() => validateRules(nested(100_000)), { instanceOf: UsageError, message: /^Rules nest 100000 levels deep .*at most 12 levels/ })
  // 2^40 rules in all, out of 80 objects.
  let shared: Record<string, unknown> = { leaf: { selector: 'p' } }
  for (let level = 0; level < 40; level++) {
    const rule = { selectorAll: 'li', attr: shared }
    shared = { a: rule, b: rule }
  }
  const started = performance.now()
  t.throws(() => validateRules(shared), { instanceOf: UsageError, message: /^Rules nest at least 41 levels deep/ })
  t.true(performance.now() - started < 1_000)
})

test(`rules hold at most ${MAX_RULES} rules in all, nested rules and fallbacks included`, (t) => {
  t.notThrows(() => validateRules(wide(MAX_RULES)))
  t.throws(() => validateRules(wide(10_000)), {
    instanceOf: UsageError,
    message: 'Rules hold 10000 rules, counting nested rules and fallbacks; at most 300 are allowed.',
  })
  const fallbacks = { ...wide(MAX_RULES - 1), last: [{ selector: 'a' }, { selector: 'b' }] }
  t.throws(() => validateRules(fallbacks), { instanceOf: UsageError, message: /Rules hold 301 rules/ })
  const inList = { items: { selectorAll: 'li', attr: wide(MAX_RULES) } }
  t.throws(() => validateRules(inList), { instanceOf: UsageError, message: /Rules hold 301 rules/ })
})

test('rules that contain themselves are refused', (t) => {
  const items: Record<string, unknown> = { selectorAll: 'li' }
  const rules = { items }
  items.attr = rules
  t.throws(() => validateRules(rules), { instanceOf: UsageError, message: 'Invalid rule for field "items": its nested rules contain themselves.' })
  // The same rule used twice is not a loop.
  const price = { selector: '.price', type: 'number' }
  t.notThrows(() => validateRules({ a: price, b: { selectorAll: 'li', attr: { price } } }))
})

for (const name of RESERVED_FIELDS) {
  test(`a field named ${name} is refused, not dropped`, (t) => {
    // Parsed from JSON, as rules stored by a caller are: "__proto__" is then a field like any other.
    const top = JSON.parse(`{"title": {"selector": "h1"}, "${name}": {"selector": "p"}}`)
    t.throws(() => validateRules(top), { instanceOf: UsageError, message: `Invalid rule for field "${name}": a field may not be named "${name}" (reserved: __proto__, constructor, prototype).` })
    const inner = JSON.parse(`{"items": {"selectorAll": "li", "attr": {"${name}": {"selector": "p"}}}}`)
    t.throws(() => validateRules(inner), { instanceOf: UsageError, message: new RegExp(`field "items\\.${name}": a field may not be named`) })
  })
}
