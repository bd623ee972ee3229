import test from 'ava'
import { UsageError } from '../src/errors.ts'
import { validateRules } from '../src/extract/validate-rules.ts'

const rejects: [title: string, rules: unknown, message: RegExp][] = [
  ['rules that are not an object', 'h1', /Rules must be an object of fields, got "h1"/],
  ['rules with no fields', {}, /Rules have no fields/],
  ['an unknown property, naming it and the field', { title: { selector: 'h1', atr: 'text' } }, /field "title": unknown property "atr"/],
  ['evaluate', { title: { evaluate: 'document.title' } }, /field "title": "evaluate" is not supported/],
  ['evaluate in a nested rule', { items: { selectorAll: 'li', attr: { name: { evaluate: '1' } } } }, /field "items\.name": "evaluate"/],
  ['an unknown type, naming the known ones', { price: { selector: '.p', type: 'money' } }, /field "price": unknown type "money" \(known types: number, url, image, date, string\)/],
  ['selector and selectorAll together', { a: { selector: 'a', selectorAll: 'a' } }, /field "a": a rule has either "selector" or "selectorAll"/],
  ['an empty selector', { a: { selector: ' ' } }, /field "a": "selector" must be a non-empty CSS selector/],
  ['a selector that is not a string', { a: { selectorAll: 3 } }, /field "a": "selectorAll" must be a non-empty CSS selector, got 3/],
  ['a rule that is not an object', { a: 'h1' }, /field "a": expected a rule object or a list of rule objects, got "h1"/],
  ['an empty fallback list', { a: [] }, /field "a": the list of fallback rules is empty/],
  ['a bad fallback, naming its place in the list', { a: [{ selector: 'a' }, { selector: 'b', type: 'nope' }] }, /field "a\[1\]": unknown type "nope"/],
  ['an empty attr list', { a: { attr: [] } }, /field "a": "attr" is an empty list/],
  ['a non-string in an attr list', { a: { attr: ['href', 1] } }, /field "a": every "attr" in a list must be a non-empty string, got 1/],
  ['an attr of the wrong kind', { a: { attr: 1 } }, /field "a": "attr" must be a string, a list of strings or nested rules, got 1/],
  ['a type next to nested rules', { a: { selectorAll: 'li', type: 'number', attr: { b: {} } } }, /field "a": "type" does not apply to nested rules/],
  ['nested rules with no fields', { a: { selectorAll: 'li', attr: {} } }, /field "a": nested rules have no fields/],
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
      items: { selectorAll: 'li', attr: { name: { attr: 'text' }, price: { selector: '.p', type: 'number' }, tags: { selectorAll: '.t', attr: 'text' } } },
    }),
  )
})
