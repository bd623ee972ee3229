import test from 'ava'
import { z } from 'zod'
import { checklistReplySchema, MAX_CHECKLIST_ITEMS, parseCallerChecklist } from '../src/checklist/checklist-schema.ts'
import { UsageError } from '../src/errors.ts'

const item = { description: 'Type the query', check: { kind: 'field_value', field: 'Search', value: 'dune' } }

test('the reply schema converts to JSON Schema, with anyOf (strict modes refuse oneOf) and no extra properties', (t) => {
  const schema = JSON.stringify(z.toJSONSchema(checklistReplySchema))
  t.true(schema.includes('"anyOf"'))
  t.false(schema.includes('"oneOf"'))
  t.true(schema.includes('"additionalProperties":false'))
  t.true(schema.includes(`"maxItems":${MAX_CHECKLIST_ITEMS}`))
})

test('every kind parses, trimmed', (t) => {
  const items = [
    item,
    { description: 'Tick news', check: { kind: 'checked', control: 'News', checked: true } },
    { description: 'Pick gold', check: { kind: 'selected', control: 'Plan', option: 'Gold' } },
    { description: 'Submit', check: { kind: 'activated', control: '  Join  ' } },
    { description: 'Thanks shown', check: { kind: 'text_visible', text: 'Thank you' } },
    { description: 'On results', check: { kind: 'url_matches', contains: '/results' } },
    { description: 'Looks right', check: { kind: 'judgment' } },
  ]
  const parsed = checklistReplySchema.parse({ items })
  t.is(parsed.items.length, 7)
  t.deepEqual(parsed.items[3]!.check, { kind: 'activated', control: 'Join' })
  t.deepEqual(parseCallerChecklist(items, 'goal options'), parsed.items)
})

const refused: [string, unknown, RegExp][] = [
  ['an empty list', [], /goal options: checklist: must hold at least one item \(got \[\]\)/],
  ['not a list', 'submit', /goal options: checklist: expected a list of checklist items \(got "submit"\)/],
  ['an unknown kind', [item, item, { description: 'x', check: { kind: 'click', control: 'Go' } }], /checklist\[2\]\.check\.kind: expected kind to be one of field_value, .*judgment \(got "click"\)/],
  ['a selector', [{ description: 'x', check: { kind: 'activated', control: 'Go', selector: '#go' } }], /checklist\[0\]\.check: Unrecognized key: "selector"/],
  ['a blank description', [{ ...item, description: '   ' }], /checklist\[0\]\.description: must not be empty/],
  ['a missing argument', [{ description: 'x', check: { kind: 'checked', control: 'News' } }], /checklist\[0\]\.check\.checked: expected true or false \(got nothing\)/],
  ['a long value', [{ description: 'x', check: { kind: 'text_visible', text: 'x'.repeat(201) } }], /checklist\[0\]\.check\.text: must be at most 200 characters/],
  ['too many items', Array(MAX_CHECKLIST_ITEMS + 1).fill(item), /checklist: must hold at most 8 items/],
]

for (const [what, value, message] of refused) {
  test(`a caller's checklist with ${what} throws a UsageError that says where and what`, (t) => {
    const error = t.throws(() => parseCallerChecklist(value, 'goal options'), { instanceOf: UsageError })
    t.regex(error!.message, message)
  })
}

test('the reply schema refuses what the caller\'s does', (t) => {
  for (const [what, value] of refused) t.false(checklistReplySchema.safeParse({ items: value }).success, what)
  t.false(checklistReplySchema.safeParse({ items: [item], note: 'extra' }).success)
})
