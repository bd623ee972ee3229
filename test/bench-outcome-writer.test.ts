import test from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import type { Experimental_DecisionModelV4CallOptions } from '@ai-sdk/provider'
import { createLedger } from '../src/base/ledger.ts'
import type { ChecklistPrompt } from '../src/checklist/checklist-schema.ts'
import { writeChecklist } from '../src/checklist/write-checklist.ts'
import { writeText } from '../src/decision/write-text.ts'
import { mergeSettings } from '../src/options.ts'
import type { OracleStep } from './fixtures/reach/case-types.ts'
import { writeCapableChecklist } from '../scripts/outcome/capable-writer.ts'
import { withChecklistWriter } from '../scripts/outcome/checklist-model.ts'
import { oracle } from '../scripts/reach/oracle.ts'
import { textResult } from './helpers/language-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// bench:outcome's scripted checklist writer (what a capable model would write from the goal, the
// case's steps and the request's controls), how its text model tells the checklist request from a
// TYPE_TEXT one, and the oracle's answer to a choice question it does not know.

const controls: ChecklistPrompt['controls'] = [
  { role: 'textbox', name: 'Email address', type: 'email' },
  { role: 'combobox', name: 'Country', options: ['Austria', 'Belgium'] },
  { role: 'checkbox', name: 'Subscribe to the newsletter' },
  { role: 'listbox', name: 'People', options: ['Ada Lovelace', 'Grace Hopper'] },
  { role: 'button', name: 'Register now' },
  { role: 'link', name: 'Help' },
]

function write(goal: string, steps: OracleStep[], requestText = '') {
  return writeCapableChecklist(steps, { goal, page: { url: 'http://127.0.0.1/', title: 'Register', text: '' }, controls }, requestText)
}

test('one item per step, of the kind the step proves, naming the control as the request lists it', (t) => {
  const items = write('Register lena@example.com from Austria, with the newsletter, and share with Grace Hopper', [
    { operation: 'TYPE_TEXT', target: 'email address', text: 'lena@example.com' },
    { operation: 'SELECT', target: 'Country', option: 'austria' },
    { operation: 'CLICK', target: 'Subscribe to the newsletter' },
    { operation: 'CLICK', target: 'Grace Hopper' },
    { operation: 'CLICK', target: 'Register' },
    { operation: 'SUBMIT', target: 'Email address' },
  ])
  t.deepEqual(
    items.map((item) => item.check),
    [
      { kind: 'field_value', field: 'Email address', value: 'lena@example.com' },
      { kind: 'selected', control: 'Country', option: 'Austria' },
      { kind: 'checked', control: 'Subscribe to the newsletter', checked: true },
      // A click on an option of a listed listbox picks it, as the oracle plays it.
      { kind: 'selected', control: 'People', option: 'Grace Hopper' },
      // "Register" is held as a whole word by "Register now": the name the request gives.
      { kind: 'activated', control: 'Register now' },
      { kind: 'activated', control: 'Email address' },
    ],
  )
  t.is(items[0]!.description, 'Type "lena@example.com" into Email address')
  // Within the schema's bounds, however long the text typed: a value it cannot hold is a judgment.
  const long = 'word '.repeat(60).trim()
  const [item] = write(`Write "${long}"`, [{ operation: 'TYPE_TEXT', target: 'Email address', text: long }])
  t.is(item!.description.length, 200)
  t.is(item!.check.kind, 'judgment')
})

test('a control the request does not list is named as the step names it: it may appear later', (t) => {
  const items = write('Open the settings, set my name to Lena and save', [
    { operation: 'CLICK', target: 'Settings' },
    { operation: 'TYPE_TEXT', target: 'Display name', text: 'Lena' },
    { operation: 'SELECT', target: 'Language', option: 'Deutsch' },
  ])
  t.deepEqual(
    items.map((item) => item.check),
    [
      { kind: 'activated', control: 'Settings' },
      { kind: 'field_value', field: 'Display name', value: 'Lena' },
      { kind: 'selected', control: 'Language', option: 'Deutsch' },
    ],
  )
})

test('a target several listed controls hold is named as the step names it; typed text the goal does not state is no item', (t) => {
  const listed: ChecklistPrompt['controls'] = [
    { role: 'checkbox', name: 'Select Grace Hopper' },
    { role: 'combobox', name: 'To', type: 'text' },
    { role: 'link', name: 'Grace Hopper Compiler meeting moved' },
  ]
  const steps: OracleStep[] = [
    { operation: 'CLICK', target: 'Grace Hopper' },
    { operation: 'TYPE_TEXT', target: 'To', text: 'Lis' },
    { operation: 'CLICK', target: 'Lisbon, Portugal (LIS)' },
  ]
  const items = writeCapableChecklist(steps, { goal: 'Open the email from Grace Hopper, then fly to Lisbon', page: { url: '', title: '', text: '' }, controls: listed }, '')
  t.deepEqual(
    items.map((item) => item.check),
    [
      { kind: 'activated', control: 'Grace Hopper' },
      { kind: 'activated', control: 'Lisbon, Portugal (LIS)' },
    ],
  )
})

test('keys: Enter activates the control it is pressed in (the one acted on before, without a target); other keys, hover, drag and scroll are judgments', (t) => {
  const items = write('Send it to a@b.example', [
    { operation: 'TYPE_TEXT', target: 'Email address', text: 'a@b.example' },
    { operation: 'PRESS', key: 'Enter' },
    { operation: 'PRESS', target: 'Help', key: 'Enter' },
    { operation: 'PRESS', target: 'Email address', key: 'Control+A' },
    { operation: 'HOVER', target: 'Shop' },
    { operation: 'DRAG', target: 'Volume', to: 'right-25' },
    { operation: 'SCROLL_DOWN', target: 'Terms' },
  ])
  t.deepEqual(
    items.map((item) => item.check.kind === 'judgment' ? item.description : item.check),
    [
      { kind: 'field_value', field: 'Email address', value: 'a@b.example' },
      { kind: 'activated', control: 'Email address' },
      { kind: 'activated', control: 'Help' },
      'Press Control+A in Email address',
      'Point at Shop',
      'Drag Volume to right-25',
      'Scroll Terms to the end',
    ],
  )
})

test('a copied value is a field_value only when the checklist request holds it; else a judgment', (t) => {
  const steps: OracleStep[] = [{ operation: 'TYPE_TEXT', target: 'Email address', copy: 'code is (\\d{6})' }]
  t.deepEqual(write('Enter the code', steps, '{"goal":"Enter the code","title":"Your code is 482913"}')[0]!.check, {
    kind: 'field_value',
    field: 'Email address',
    value: '482913',
  })
  t.deepEqual(write('Enter the code', steps, '{"goal":"Enter the code"}')[0], {
    description: 'Type into Email address the text copied from the page',
    check: { kind: 'judgment' },
  })
})

test('text_visible only for a text the goal quotes that no step types, picks or acts on', (t) => {
  const steps: OracleStep[] = [
    { operation: 'TYPE_TEXT', target: 'Email address', text: 'On holiday' },
    { operation: 'CLICK', target: 'Remove old' },
    { operation: 'CLICK', target: 'Register now' },
  ]
  const items = write('Type "On holiday", remove the “old” tag, register and wait for "Welcome aboard"', steps)
  t.deepEqual(items.at(-1), { description: 'The page shows "Welcome aboard"', check: { kind: 'text_visible', text: 'Welcome aboard' } })
  t.is(items.filter((item) => item.check.kind === 'text_visible').length, 1)
  t.false(write('Register now', steps).some((item) => item.check.kind === 'text_visible'))
})

test('a repeated step is one item, and a long script keeps within the schema bound: judgments first, then the first steps and the last', (t) => {
  const next: OracleStep = { operation: 'CLICK', target: 'Next' }
  t.deepEqual(write('Go on', [next, next, { operation: 'HOVER', target: 'Shop' }, { operation: 'HOVER', target: 'Shop' }]).length, 2)
  const fields = Array.from({ length: 9 }, (_, index): OracleStep => ({ operation: 'TYPE_TEXT', target: `Field ${index + 1}`, text: 'x' }))
  const withHover = write('Fill it in with x', [{ operation: 'HOVER', target: 'Shop' }, ...fields.slice(0, 7), { operation: 'CLICK', target: 'Register now' }])
  t.is(withHover.length, 8)
  t.false(withHover.some((item) => item.check.kind === 'judgment'))
  const long = write('Fill it in with x', [...fields, { operation: 'CLICK', target: 'Register now' }])
  t.is(long.length, 8)
  t.deepEqual(long.at(-1)!.check, { kind: 'activated', control: 'Register now' })
  t.deepEqual(long.at(-2)!.check, { kind: 'field_value', field: 'Field 7', value: 'x' })
})

const observation = pageObservation({
  url: 'http://127.0.0.1/register',
  title: 'Register',
  elements: [
    observedElement('e1', { role: 'textbox', name: 'Email address', tag: 'input', type: 'email', value: '', operations: ['type'] }),
    observedElement('e2', { name: 'Register now' }),
  ],
})

test("the library's checklist request goes to the writer, a TYPE_TEXT request to the oracle's text model", async (t) => {
  const typing = new MockLanguageModelV4({ doGenerate: async () => textResult('{"text":"lena@example.com"}') })
  const steps: OracleStep[] = [
    { operation: 'TYPE_TEXT', target: 'Email address', text: 'lena@example.com' },
    { operation: 'CLICK', target: 'Register now' },
  ]
  const goal = 'Register lena@example.com'
  for (const writer of ['capable', 'local'] as const) {
    const settings = mergeSettings({ text: withChecklistWriter(typing, writer, steps), maxRetries: 0 })
    const written = await writeChecklist({ goal, observation, settings, ledger: createLedger() })
    t.true(written.items !== null && written.items.length > 0, writer)
    if (writer === 'capable') {
      t.deepEqual(written.items?.map((item) => item.check), [
        { kind: 'field_value', field: 'Email address', value: 'lena@example.com' },
        { kind: 'activated', control: 'Register now' },
      ])
    }
    t.is(typing.doGenerateCalls.length, 0)
    const typed = await writeText({ goal, observation, target: observation.elements[0]!, recent: [], settings, ledger: createLedger() })
    t.is(typed.text, 'lena@example.com')
    t.is(typing.doGenerateCalls.length, 1)
    typing.doGenerateCalls.length = 0
  }
})

test('the oracle answers a choice question it does not know with the option naming the step\'s target, else the first', async (t) => {
  const played = oracle([{ operation: 'CLICK', target: 'Register now' }])
  const request = (questions: Experimental_DecisionModelV4CallOptions['questions']): Experimental_DecisionModelV4CallOptions => ({
    state: [{ type: 'json', value: { elements: [{ id: 'e2', name: 'Register now' }] } }],
    questions: {
      operation: { type: 'choice', criteria: { CLICK: null, DONE: null } },
      click_target: { type: 'choice', criteria: { e2: null } },
      ...questions,
    },
  })
  const decide = async (questions: Experimental_DecisionModelV4CallOptions['questions']) => (await played.decisions.doDecide(request(questions))).answers
  // By an option's description, whatever its key.
  const byCriterion = await decide({ serves: { type: 'choice', criteria: { item1: 'Type the email', item2: 'Click Register now', item3: null } } })
  t.like(byCriterion, { operation: { choice: 'CLICK' }, click_target: { choice: 'e2' }, serves: { type: 'choice', choice: 'item2' } })
  // By its key.
  t.like(await decide({ serves: { type: 'choice', criteria: { 'Type the email': null, 'Register now': null } } }), { serves: { choice: 'Register now' } })
  // Nothing names the target: the first option, never a refusal.
  t.like(await decide({ serves: { type: 'choice', criteria: { item1: 'Open Help', item2: { text: 'Close' } } } }), { serves: { type: 'choice', choice: 'item1' } })
})
