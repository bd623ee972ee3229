import test from 'ava'
import type { ChecklistItem } from '../types/index.d.ts'
import type { ObservedElement } from '../src/collector/observation.ts'
import { writeChecklist } from '../src/checklist/write-checklist.ts'
import { mergeSettings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// The offline checklist writer, through the same request a real text model gets (`text: 'local'`).

const field = (id: string, name: string, fields: Partial<ObservedElement> = {}) =>
  observedElement(id, { role: 'textbox', name, tag: 'input', type: 'text', value: '', operations: ['type'], ...fields })

const searchPage = pageObservation({
  url: 'https://books.test/',
  elements: [observedElement('e1', { role: 'link', name: 'Home', tag: 'a' }), field('e2', 'Search', { role: 'searchbox', type: 'search' }), observedElement('e3', { name: 'Go' })],
})

const formPage = pageObservation({
  url: 'https://club.test/join',
  elements: [
    field('e1', 'Email *', { type: 'email' }),
    field('e2', 'Name'),
    observedElement('e3', {
      role: 'combobox',
      name: 'Plan',
      tag: 'select',
      value: 'Silver',
      operations: ['select'],
      options: [
        { id: 'o1', label: 'Silver', value: 'silver', selected: true },
        { id: 'o2', label: 'Gold', value: 'gold', selected: false },
      ],
    }),
    observedElement('e4', { role: 'checkbox', name: 'Send me news', tag: 'input', type: 'checkbox', state: { checked: false } }),
    observedElement('e5', { name: 'Cancel' }),
    observedElement('e6', { name: 'Join the club' }),
  ],
})

const storiesPage = pageObservation({
  url: 'https://news.test/',
  elements: [
    observedElement('e1', { role: 'link', name: 'Rust 2.0 released', tag: 'a' }),
    observedElement('e2', { role: 'link', name: '128 comments', tag: 'a' }),
    observedElement('e3', { role: 'link', name: 'Google', tag: 'a' }),
    observedElement('e4', { role: 'link', name: 'Go', tag: 'a' }),
  ],
})

async function checklistFor(goal: string, observation = formPage): Promise<ChecklistItem[] | null> {
  const ledger = createLedger()
  const written = await writeChecklist({ goal, observation, settings: mergeSettings({ text: 'local' }), ledger })
  if (written.items === null) throw new Error(written.note)
  return written.items
}

const checks = (items: ChecklistItem[] | null) => items?.map((item) => item.check)

test('a quoted search fills the search field, then submits it with the search button or the field', async (t) => {
  t.deepEqual(checks(await checklistFor('Search for "dune"', searchPage)), [
    { kind: 'field_value', field: 'Search', value: 'dune' },
    { kind: 'activated', control: 'Search' },
  ])
})

test('a form goal gives one item per clause, in the goal\'s order, named as the page names them', async (t) => {
  t.deepEqual(checks(await checklistFor('Fill the form with name "Ada" and choose "Gold", check "Send me news", then submit')), [
    { kind: 'field_value', field: 'Name', value: 'Ada' },
    { kind: 'selected', control: 'Plan', option: 'Gold' },
    { kind: 'checked', control: 'Send me news', checked: true },
    { kind: 'activated', control: 'Join the club' },
  ])
})

test('several quoted values go to the fields whose names share their words, each field once', async (t) => {
  t.deepEqual(checks(await checklistFor('Join with email "ada@example.com" and name "Ada", then uncheck "Send me news"')), [
    { kind: 'field_value', field: 'Email *', value: 'ada@example.com' },
    { kind: 'field_value', field: 'Name', value: 'Ada' },
    { kind: 'checked', control: 'Send me news', checked: false },
    // "Join" asks for the form to be sent: its button comes last.
    { kind: 'activated', control: 'Join the club' },
  ])
})

const pizzaPage = pageObservation({
  url: 'https://pizza.test/',
  elements: [
    observedElement('e1', {
      role: 'combobox',
      name: 'Size',
      tag: 'select',
      operations: ['select'],
      options: ['Small', 'Medium', 'Large'].map((label, index) => ({ id: `o${index}`, label, value: label[0]!.toLowerCase(), selected: label === 'Medium' })),
    }),
    observedElement('e2', { role: 'radio', name: 'Thin', tag: 'input', type: 'radio', state: { checked: true } }),
    observedElement('e3', { role: 'radio', name: 'Thick', tag: 'input', type: 'radio', state: { checked: false } }),
    observedElement('e4', { role: 'checkbox', name: 'Extra cheese', tag: 'input', type: 'checkbox', state: { checked: false } }),
    observedElement('e5', { name: 'Place order' }),
  ],
})

test('options and boxes the goal names with all their words become items, "no" unticks, and the order is sent last', async (t) => {
  t.deepEqual(checks(await checklistFor('Order a large pizza with thick crust and extra cheese', pizzaPage)), [
    { kind: 'selected', control: 'Size', option: 'Large' },
    { kind: 'checked', control: 'Thick', checked: true },
    { kind: 'checked', control: 'Extra cheese', checked: true },
    { kind: 'activated', control: 'Place order' },
  ])
  t.deepEqual(checks(await checklistFor('Place an order for a small pizza, no extra cheese', pizzaPage)), [
    { kind: 'selected', control: 'Size', option: 'Small' },
    { kind: 'checked', control: 'Extra cheese', checked: false },
    { kind: 'activated', control: 'Place order' },
  ])
})

test('of several buttons with the ordering word, the one that shares most words with the goal is sent', async (t) => {
  const shelf = pageObservation({
    url: 'https://shop.test/',
    elements: ['Apples', 'Bananas', 'Cherries'].map((fruit, index) => observedElement(`e${index + 1}`, { name: `Buy ${fruit}` })),
  })
  t.deepEqual(checks(await checklistFor('Buy bananas', shelf)), [{ kind: 'activated', control: 'Buy Bananas' }])
  // A clause the button does not say in full stays a judgment beside it.
  t.deepEqual(checks(await checklistFor('Buy the ripest bananas', shelf)), [{ kind: 'judgment' }, { kind: 'activated', control: 'Buy Bananas' }])
})

test('"click go" names the control called Go, not Google', async (t) => {
  t.deepEqual(checks(await checklistFor('click go', storiesPage)), [{ kind: 'activated', control: 'Go' }])
})

test('"open the comments" takes a link only when its name has every word: otherwise the item stays judgment', async (t) => {
  // "128 comments" lacks "first" and "story": clicking any comments link would prove a step not asked for.
  t.deepEqual(checks(await checklistFor('Open the comments of the first story', storiesPage)), [{ kind: 'judgment' }])
  t.deepEqual(checks(await checklistFor('Open the 128 comments', storiesPage)), [{ kind: 'activated', control: '128 comments' }])
})

test('a goal with nothing checkable is one judgment item: the goal itself', async (t) => {
  const goal = 'Find out who wrote the most popular story'
  t.deepEqual(await checklistFor(goal, storiesPage), [{ description: goal, check: { kind: 'judgment' } }])
})

test('a control the page does not offer is kept when quoted, and left to judgment when not', async (t) => {
  t.deepEqual(checks(await checklistFor('Search for "dune" and click "Next page", then open the reviews', searchPage)), [
    { kind: 'field_value', field: 'Search', value: 'dune' },
    { kind: 'activated', control: 'Search' },
    { kind: 'activated', control: 'Next page' },
    { kind: 'judgment' },
  ])
})
