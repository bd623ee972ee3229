import test from 'ava'
import { APICallError } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import type { JSONObject } from '@ai-sdk/provider'
import { checklistPrompt, writeChecklist } from '../src/checklist/write-checklist.ts'
import { mergeSettings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { replyingModel, textResult, promptOf } from './helpers/language-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

const observation = pageObservation({
  url: 'https://books.test/',
  title: 'Books',
  elements: [
    observedElement('e1', { role: 'searchbox', name: 'Search', tag: 'input', type: 'search', value: '', operations: ['type'] }),
    observedElement('e2', { name: 'Go' }),
    observedElement('e3', {
      role: 'combobox',
      name: 'Genre',
      tag: 'select',
      operations: ['select'],
      options: [{ id: 'o1', label: 'Science fiction', value: 'sf', selected: false }],
    }),
  ],
})

const goal = 'Search for "dune" among science fiction'
const items = [
  { description: 'Pick the genre', check: { kind: 'selected', control: 'Genre', option: 'Science fiction' } },
  { description: 'Type the title', check: { kind: 'field_value', field: 'Search', value: 'dune' } },
  { description: 'Run the search', check: { kind: 'activated', control: 'Go' } },
]

function write(model: MockLanguageModelV4) {
  const ledger = createLedger()
  return { ledger, run: writeChecklist({ goal, observation, settings: mergeSettings({ text: model, maxRetries: 0 }), ledger }) }
}

test('a valid reply gives its items, from exactly one request counted as purpose checklist', async (t) => {
  const model = replyingModel([{ items }])
  const { ledger, run } = write(model)
  t.deepEqual(await run, { items })
  t.is(model.doGenerateCalls.length, 1)
  t.is(model.doGenerateCalls[0]!.responseFormat?.type, 'json')
  t.deepEqual(
    ledger.calls.map((call) => call.purpose),
    ['checklist'],
  )
  const prompt = promptOf(model)
  for (const text of ['dune', 'Genre', 'Science fiction', 'https://books.test/', 'searchbox']) t.true(prompt.includes(text), text)
})

const invalid: [string, string, RegExp][] = [
  ['invalid JSON', '{"items": [', /could not parse the response/],
  ['a wrong kind', JSON.stringify({ items: [{ description: 'x', check: { kind: 'click', control: 'Go' } }] }), /items\[0\]\.check: Invalid input$/],
  ['a selector', JSON.stringify({ items: [{ description: 'x', check: { kind: 'activated', control: 'Go', selector: '#go' } }] }), /items\[0\]\.check: Unrecognized key: "selector"$/],
  ['too many items', JSON.stringify({ items: Array(9).fill(items[2]) }), /items: must hold at most 8 items$/],
  ['no items', JSON.stringify({ items: [] }), /items: must hold at least one item$/],
  ['plain text', 'Search, then click Go.', /could not parse the response/],
]

for (const [what, reply, reason] of invalid) {
  test(`a reply with ${what} gives no checklist and a one-line note, without throwing`, async (t) => {
    const model = replyingModel([reply])
    const { ledger, run } = write(model)
    const written = await run
    t.is(written.items, null)
    if (written.items === null) {
      t.regex(written.note, /^The checklist reply did not validate: [^\n]+$/)
      t.regex(written.note, reason)
    }
    t.is(model.doGenerateCalls.length, 1, 'an invalid reply is not retried')
    t.is(ledger.calls.length, 1)
  })
}

test('a reply with no content at all gives a note', async (t) => {
  const model = new MockLanguageModelV4({ doGenerate: textResult('', { content: [] }) })
  const written = await write(model).run
  t.is(written.items, null)
})

test('a provider failure is rethrown, not turned into a note', async (t) => {
  const failure = new APICallError({ message: 'Bad request', url: 'https://gateway.test', requestBodyValues: {}, statusCode: 400, isRetryable: false })
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      throw failure
    },
  })
  const error = await t.throwsAsync(write(model).run)
  t.is(error, failure)
})

test('an aborted request is rethrown with the signal\'s reason', async (t) => {
  const controller = new AbortController()
  const reason = new Error('caller gave up')
  controller.abort(reason)
  const model = replyingModel([{ items }])
  const run = writeChecklist({ goal, observation, settings: mergeSettings({ text: model, signal: controller.signal }), ledger: createLedger() })
  t.is(await t.throwsAsync(run), reason)
})

test('the prompt lists fields first, each role and name once, and stays small on a crowded page', (t) => {
  const links = Array.from({ length: 240 }, (_, index) => observedElement(`l${index}`, { role: 'link', name: `Link ${index % 120} ${'x'.repeat(70)}`, tag: 'a' }))
  const selects = Array.from({ length: 10 }, (_, index) =>
    observedElement(`s${index}`, {
      role: 'combobox',
      name: `Choice ${index} ${'y'.repeat(70)}`,
      tag: 'select',
      options: Array.from({ length: 100 }, (_, option) => ({ id: `o${option}`, label: `Option ${option} ${'z'.repeat(30)}`, value: `${option}`, selected: false })),
    }),
  )
  const crowded = pageObservation({ url: `https://big.test/${'u'.repeat(2_000)}`, title: 't'.repeat(300), elements: [...links, ...selects], omitted: 30 })
  const prompt = checklistPrompt('Pick something', crowded)
  const json: JSONObject = prompt
  t.true(JSON.stringify(json).length < 20_000, `${JSON.stringify(json).length} characters`)
  t.is(prompt.controls.length, 80)
  t.is(prompt.controls[0]!.role, 'combobox', 'fields before links')
  t.is(prompt.controls[0]!.options!.length, 12)
  t.is(prompt.controls_left_out, 250 - 80 + 30)
  t.is(new Set(prompt.controls.map((control) => control.name)).size, 80, 'repeated links are listed once')
})

test('the prompt holds the start of the page text, what each control holds, and which names are by place', (t) => {
  const text = `Your coupon code is SAVE10. ${'More of the page. '.repeat(300)}`
  const page = pageObservation({
    url: 'https://shop.test/cart',
    text,
    elements: [
      observedElement('e1', { role: 'textbox', name: 'Name', tag: 'input', type: 'text', value: 'Ada', operations: ['type'] }),
      observedElement('e2', { role: 'textbox', name: 'text field 1', nameFrom: 'position', tag: 'input', type: 'text', value: 'x'.repeat(500), operations: ['type'] }),
      observedElement('e3', { role: 'textbox', name: 'text field 2', nameFrom: 'position', tag: 'input', type: 'text', value: '', operations: ['type'] }),
    ],
  })
  const prompt = checklistPrompt('Apply the coupon code the page shows', page)
  t.true(prompt.page.text.startsWith('Your coupon code is SAVE10.'))
  t.is(prompt.page.text.length, 3_000)
  t.true(prompt.page.text.endsWith(`… (${text.length.toLocaleString('en')} characters)`), 'says how long the whole text was')
  t.deepEqual(prompt.controls, [
    { role: 'textbox', name: 'Name', type: 'text', value: 'Ada' },
    { role: 'textbox', name: 'text field 1', name_from: 'position', type: 'text', value: `${'x'.repeat(82)}… (500 characters)` },
    { role: 'textbox', name: 'text field 2', name_from: 'position', type: 'text' },
  ])
})
