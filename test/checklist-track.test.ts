import test from 'ava'
import type { ChecklistItem, Operation, TraceEntry } from '../types/index.d.ts'
import type { Observation, ObservedElement } from '../src/collector/observation.ts'
import { nameFit, urlShows, valueMatches } from '../src/checklist/match-names.ts'
import { ChecklistTracker } from '../src/checklist/track-checklist.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// The tracker reads plain observations and traces: no page, no model.

const email = (value: string, fields: Partial<ObservedElement> = {}) =>
  observedElement('e1', { role: 'textbox', name: 'Email address *', tag: 'input', type: 'email', value, operations: ['type'], ...fields })
const news = (checked: boolean | 'mixed') =>
  observedElement('e2', { role: 'checkbox', name: 'Send me news', tag: 'input', type: 'checkbox', state: { checked } })
const plan = (chosen: string) =>
  observedElement('e3', {
    role: 'combobox',
    name: 'Plan',
    tag: 'select',
    value: chosen,
    operations: ['select'],
    options: ['Silver', 'Gold'].map((label, index) => ({ id: `o${index}`, label, value: label.toLowerCase(), selected: label === chosen })),
  })
const searchButton = observedElement('e4', { name: 'Search' })

const form = (...elements: ObservedElement[]) => pageObservation({ url: 'https://club.test/join', text: 'Join the club', elements })
const thanks = pageObservation({ url: 'https://club.test/Welcome?id=7', text: 'Thank you, Ada! You are in.' })

function entry(step: number, operation: Operation, targetName: string | undefined, fields: Partial<TraceEntry> = {}): TraceEntry {
  return { request: step, step, operation, targetName, stale: false, pageChanged: true, decisionMs: 1, url: 'https://club.test/join', ...fields }
}

const item = (check: ChecklistItem['check']): ChecklistItem => ({ description: check.kind, check })

test('names match equal or as whole words, case and space folded, without a label\'s trailing mark', (t) => {
  t.is(nameFit('Email *', 'email'), 2)
  t.is(nameFit('Name:', 'NAME'), 2)
  t.is(nameFit('Email  address', 'email'), 1)
  t.is(nameFit('Google', 'Go'), 0)
  t.is(nameFit('Go', 'Google'), 0)
  t.is(nameFit('Anything', '*'), 0)
  t.true(valueMatches(' Ada  Lovelace ', 'ada lovelace'))
  t.false(valueMatches('Ada', 'Ada L'))
})

test('a part of a long value, with what was left out around it, matches the value it was cut from, and no other', (t) => {
  const long = `first line\n${'word '.repeat(30)}\nlast line`
  const part = long.slice(20, 100)
  const omitted = { before: 20, after: long.length - 100 }
  t.true(valueMatches(part, long, omitted))
  t.false(valueMatches(part, `${long} more`, omitted))
  t.false(valueMatches(part, `${long.slice(0, 50)}X${long.slice(51)}`, omitted))
  t.false(valueMatches(part, long))
})

test('field_value is done when the field holds the value, and undone when the page clears it', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Email address', value: 'ada@example.com' })])
  tracker.update(form(email('')), [])
  t.like(tracker.results()[0], { status: 'open', evidence: 'Email address * holds "" (step 0)' })
  const trace = [entry(1, 'TYPE_TEXT', 'Email address *')]
  tracker.update(form(email('Ada@Example.com')), trace)
  t.like(tracker.results()[0], { status: 'done', evidence: 'Email address * holds "Ada@Example.com" (step 1)' })
  t.true(tracker.verified())
  tracker.update(form(email('')), [...trace, entry(2, 'CLICK', 'Reset')])
  t.like(tracker.results()[0], { status: 'open', evidence: 'Email address * holds "" (step 2)' })
  t.false(tracker.verified())
})

test('state items keep their last evidence once the page no longer offers the control', (t) => {
  const tracker = new ChecklistTracker([
    item({ kind: 'field_value', field: 'Email', value: 'ada@example.com' }),
    item({ kind: 'checked', control: 'Send me news', checked: true }),
    item({ kind: 'selected', control: 'Plan', option: 'gold' }),
  ])
  tracker.update(form(email(''), news(false), plan('Silver')), [])
  tracker.update(form(email('ada@example.com'), news(true), plan('Gold')), [entry(3, 'SELECT', 'Plan')])
  t.deepEqual(
    tracker.results().map((result) => [result.status, result.evidence]),
    [
      ['done', 'Email address * holds "ada@example.com" (step 3)'],
      ['done', 'Send me news is checked (step 3)'],
      ['done', 'Plan shows "Gold" (step 3)'],
    ],
  )
  tracker.update(thanks, [entry(3, 'SELECT', 'Plan'), entry(4, 'CLICK', 'Join')])
  t.deepEqual(
    tracker.results().map((result) => result.status),
    ['done', 'done', 'done'],
  )
  t.is(tracker.results()[1]!.evidence, 'Send me news is checked (step 3)')
})

test('checked and selected are open while the control holds something else; mixed proves neither', (t) => {
  const tracker = new ChecklistTracker([
    item({ kind: 'checked', control: 'send me news', checked: true }),
    item({ kind: 'checked', control: 'Send me news', checked: false }),
    item({ kind: 'selected', control: 'Plan', option: 'Gold' }),
  ])
  tracker.update(form(news(false), plan('Silver')), [])
  t.deepEqual(
    tracker.results().map((result) => [result.status, result.evidence]),
    [
      ['open', 'Send me news is not checked (step 0)'],
      ['judgment', 'Already so at the start: Send me news is not checked (step 0)'],
      ['open', 'Plan shows "Silver" (step 0)'],
    ],
  )
  tracker.update(form(news('mixed'), plan('Silver')), [])
  t.deepEqual(
    tracker.results().map((result) => [result.status, result.evidence]),
    [
      ['open', 'Send me news is partly checked (step 0)'],
      ['open', 'Send me news is partly checked (step 0)'],
      ['open', 'Plan shows "Silver" (step 0)'],
    ],
  )
})

test('a checkbox offered through its label, and a listbox showing its value, are judged too', (t) => {
  const tracker = new ChecklistTracker([
    item({ kind: 'checked', control: 'I agree', checked: true }),
    item({ kind: 'selected', control: 'Size', option: 'Large' }),
  ])
  const label = observedElement('e5', { role: 'checkbox', name: 'I agree to the terms', tag: 'input', type: 'checkbox', state: { checked: true } })
  const listbox = observedElement('e6', { role: 'combobox', name: 'Size', tag: 'div', value: 'Large' })
  tracker.update(form({ ...label, state: { checked: false } }, { ...listbox, value: 'Small' }), [])
  tracker.update(form(label, listbox), [entry(1, 'CLICK', 'I agree to the terms')])
  t.deepEqual(
    tracker.results().map((result) => result.status),
    ['done', 'done'],
  )
})

test('an equally named control beats one whose name only contains the wanted name', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Email', value: 'ada@example.com' })])
  const confirm = observedElement('e7', { role: 'textbox', name: 'Confirm email', tag: 'input', value: 'ada@example.com', operations: ['type'] })
  const exact = observedElement('e8', { role: 'textbox', name: 'Email', tag: 'input', value: '', operations: ['type'] })
  tracker.update(form(confirm, exact), [])
  t.like(tracker.results()[0], { status: 'open', evidence: 'Email holds "" (step 0)' })
})

test('activated needs a non-stale click, submit or select that changed the page; presence never counts', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'activated', control: 'Search' })])
  const page = form(searchButton)
  tracker.update(page, [])
  t.like(tracker.results()[0], { status: 'open', evidence: undefined })
  t.false(tracker.verified(), 'the Search button on the page is not a click on it')

  const trace = [entry(1, 'CLICK', 'Search', { stale: true }), entry(1, 'TYPE_TEXT', 'Search'), entry(1, 'CLICK', 'Search results', { pageChanged: true })]
  tracker.update(page, trace)
  t.is(tracker.results()[0]!.status, 'open', 'stale, typing, and another control named with the word do not count')

  trace.push(entry(2, 'CLICK', 'search', { pageChanged: false }))
  tracker.update(page, trace)
  t.like(tracker.results()[0], { status: 'open', evidence: 'CLICK "search" landed; the page did not change (step 2)' })

  trace.push(entry(3, 'SUBMIT', 'Search'))
  tracker.update(thanks, trace)
  t.like(tracker.results()[0], { status: 'done', evidence: 'SUBMIT "Search" changed the page (step 3)' })
  tracker.update(form(), [...trace, entry(4, 'CLICK', 'Back')])
  t.is(tracker.results()[0]!.status, 'done', 'an event is never undone')
})

test('activated takes a control whose name contains the wanted one, unless one named exactly was offered', (t) => {
  const loose = new ChecklistTracker([item({ kind: 'activated', control: 'Add to cart' })])
  loose.update(form(observedElement('e1', { name: 'Add to cart: Dune' })), [])
  loose.update(thanks, [entry(1, 'CLICK', 'Add to cart: Dune')])
  t.is(loose.results()[0]!.status, 'done')

  const strict = new ChecklistTracker([item({ kind: 'activated', control: 'Click me' })])
  strict.update(form(observedElement('e1', { name: 'Click me' }), observedElement('e2', { name: 'Double click me' })), [])
  strict.update(thanks, [entry(1, 'CLICK', 'Double click me')])
  t.is(strict.results()[0]!.status, 'open')
})

test('activated counts only when every item above it was done: a form sent before it was filled is not the step', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'selected', control: 'Plan', option: 'Gold' }), item({ kind: 'activated', control: 'Search' })])
  const trace: TraceEntry[] = []
  tracker.update(form(plan('Silver'), searchButton), trace)
  trace.push(entry(1, 'CLICK', 'Search'))
  tracker.update(form(plan('Silver'), searchButton), trace)
  t.like(tracker.results()[1], { status: 'open', evidence: 'CLICK "Search" came before the items above it were done (step 1)' })
  trace.push(entry(2, 'SELECT', 'Plan'))
  tracker.update(form(plan('Gold'), searchButton), trace)
  t.false(tracker.verified(), 'choosing Gold afterwards does not send the form again')
  trace.push(entry(3, 'CLICK', 'Search'))
  tracker.update(thanks, trace)
  t.true(tracker.verified())
})

test('SUBMIT in a field activates the button of its form; a field of another form does not', (t) => {
  const inForm = (id: string, name: string, formName: string, fields: Partial<ObservedElement> = {}) =>
    observedElement(id, { name, form: { name: formName, fields: {} }, ...fields })
  const page = form(
    inForm('e1', 'Search products', 'search', { role: 'searchbox', operations: ['type', 'submit'] }),
    inForm('e2', 'Search', 'search'),
    inForm('e3', 'Email', 'newsletter', { role: 'textbox', operations: ['type', 'submit'] }),
  )
  const viaField = new ChecklistTracker([item({ kind: 'activated', control: 'Search' })])
  viaField.update(page, [])
  viaField.update(thanks, [entry(1, 'SUBMIT', 'Search products', { target: 'e1' })])
  t.like(viaField.results()[0], { status: 'done', evidence: 'SUBMIT "Search products" changed the page (step 1)' })

  const otherForm = new ChecklistTracker([item({ kind: 'activated', control: 'Search' })])
  otherForm.update(page, [])
  otherForm.update(thanks, [entry(1, 'SUBMIT', 'Email', { target: 'e3' })])
  t.is(otherForm.results()[0]!.status, 'open')
})

test('a state item is undone only by the control that proved it, not by a field of that name on a new page', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Email', value: 'ada@example.com' })])
  const trace = [entry(1, 'TYPE_TEXT', 'Email address *')]
  tracker.update(form(email('', { nodeId: 'doc1:1' })), [])
  tracker.update(form(email('ada@example.com', { nodeId: 'doc1:1' })), trace)
  t.is(tracker.results()[0]!.status, 'done')
  trace.push(entry(2, 'CLICK', 'Next'))
  tracker.update(form(email('', { nodeId: 'doc2:1' })), trace)
  t.is(tracker.results()[0]!.status, 'done', 'the empty field of the next page is another field')
  tracker.update(form(email('', { nodeId: 'doc1:1' })), trace)
  t.is(tracker.results()[0]!.status, 'open', 'the field that held the value was cleared')
})

test('end-state items hold on the newest observation only, and open again once the page is left', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'url_matches', contains: '/welcome' }), item({ kind: 'text_visible', text: 'thank  you, ada' })])
  tracker.update(form(), [])
  t.deepEqual(
    tracker.results().map((result) => [result.status, result.evidence]),
    [
      ['open', 'URL is https://club.test/join (step 0)'],
      ['open', undefined],
    ],
  )
  tracker.update(thanks, [entry(1, 'CLICK', 'Join')])
  t.deepEqual(
    tracker.results().map((result) => [result.status, result.evidence]),
    [
      ['done', 'URL is https://club.test/Welcome?id=7 (step 1)'],
      ['done', 'The page shows "thank  you, ada" (step 1)'],
    ],
  )
  t.true(tracker.verified())
  tracker.update(form(), [entry(1, 'CLICK', 'Join'), entry(2, 'CLICK', 'Back')])
  t.deepEqual(
    tracker.open().map((result) => result.check.kind),
    ['url_matches', 'text_visible'],
  )
})

test('judgment items are never done and never open; verified() needs a checkable item', (t) => {
  const judged = new ChecklistTracker([item({ kind: 'judgment' })])
  judged.update(thanks, [])
  t.like(judged.results()[0], { status: 'judgment', evidence: undefined })
  t.deepEqual(judged.open(), [])
  t.false(judged.verified(), 'nothing checkable: not verified')

  const mixed = new ChecklistTracker([item({ kind: 'judgment' }), item({ kind: 'url_matches', contains: 'welcome' })])
  t.false(mixed.verified(), 'open before any observation')
  mixed.update(form(), [])
  mixed.update(thanks, [entry(1, 'CLICK', 'Join')])
  t.true(mixed.verified(), 'judgment items do not hold verification back')
  t.deepEqual(
    mixed.results().map((result) => result.status),
    ['judgment', 'done'],
  )
})

test('evidence stays short whatever the page holds', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Email', value: 'a' }), item({ kind: 'url_matches', contains: 'x' })])
  tracker.update(pageObservation({ url: `https://club.test/${'u'.repeat(5_000)}`, elements: [email('v'.repeat(5_000), { name: `Email ${'n'.repeat(5_000)}` })] }), [])
  for (const result of tracker.results()) t.true(result.evidence!.length <= 120, result.evidence)
})

test('a full observation (250 controls, 6,000 characters of text) with eight items evaluates in a few ms', (t) => {
  const elements = Array.from({ length: 250 }, (_, index) =>
    index % 2 === 0
      ? observedElement(`e${index}`, { role: 'textbox', name: `Field number ${index}`, tag: 'input', value: `value ${index}`, operations: ['type'] })
      : observedElement(`e${index}`, { name: `Button number ${index}` }),
  )
  const observation: Observation = pageObservation({ url: 'https://big.test/', text: 'word '.repeat(1_200), elements })
  const items = [
    item({ kind: 'field_value', field: 'Field number 248', value: 'value 248' }),
    item({ kind: 'field_value', field: 'Missing', value: 'x' }),
    item({ kind: 'checked', control: 'Button number 3', checked: true }),
    item({ kind: 'selected', control: 'Field number 2', option: 'x' }),
    item({ kind: 'activated', control: 'Button number 249' }),
    item({ kind: 'text_visible', text: 'not there' }),
    item({ kind: 'url_matches', contains: 'big.test' }),
    item({ kind: 'judgment' }),
  ]
  const trace = Array.from({ length: 50 }, (_, index) => entry(index + 1, 'CLICK', `Button number ${index}`, { pageChanged: false }))
  const tracker = new ChecklistTracker(items)
  tracker.update(pageObservation({ url: 'https://big.test/start' }), [])
  tracker.update(observation, trace)
  const runs = 50
  const started = performance.now()
  for (let run = 0; run < runs; run++) new ChecklistTracker(items).update(observation, trace)
  const ms = (performance.now() - started) / runs
  t.log(`${ms.toFixed(3)} ms per evaluation of 8 items against 250 controls and 50 trace entries`)
  t.is(tracker.results()[0]!.status, 'done')
})

test('a URL shows its path; its query and fragment only when the wanted part names them', (t) => {
  t.false(urlShows('https://shop.test/login?next=/order-complete', '/order-complete'))
  t.true(urlShows('https://shop.test/Order-Complete?id=7#top', '/order-complete'))
  t.true(urlShows('https://shop.test/login?next=/order-complete', '?next=/order-complete'))
  t.true(urlShows('https://shop.test/list?step=2', 'step=2'))
  t.false(urlShows('https://shop.test/list#done', 'done'))
  t.true(urlShows('https://shop.test/list#done', '#done'))
})

test('what the start observation shows is met_at_start, and done once the run brings it about', (t) => {
  const tracker = new ChecklistTracker([
    item({ kind: 'field_value', field: 'Email', value: 'ada@example.com' }),
    item({ kind: 'text_visible', text: 'Thank you' }),
    item({ kind: 'url_matches', contains: '/join' }),
  ])
  const start = pageObservation({ url: 'https://club.test/join?step=1', text: 'Thank you, says a reader', elements: [email('ada@example.com')] })
  tracker.update(start, [])
  t.deepEqual(tracker.results().map((result) => [result.status, result.unproven]), Array(3).fill(['judgment', 'met_at_start']))
  t.deepEqual(tracker.open(), [], 'a page that met the goal holds no DONE back')
  t.false(tracker.verified())
  // The agent types the value again: now it is the run's.
  tracker.update(start, [entry(1, 'TYPE_TEXT', 'Email address *', { target: 'e1' })])
  t.like(tracker.results()[0], { status: 'done', unproven: undefined })
})

test('an item whose control no observation offered is unmatched, and does not hold back the items below it', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Coupon code', value: 'SAVE10' }), item({ kind: 'activated', control: 'Apply' })])
  const page = form(observedElement('e1', { role: 'textbox', name: '', tag: 'input', value: 'SAVE10', operations: ['type'] }), observedElement('e2', { name: 'Apply' }))
  tracker.update(page, [])
  tracker.update(thanks, [entry(1, 'CLICK', 'Apply', { target: 'e2' })])
  t.deepEqual(tracker.results().map((result) => [result.status, result.unproven]), [['judgment', 'unmatched'], ['done', undefined]])
  t.deepEqual(tracker.open(), [])
  t.false(tracker.verified())
})

test('a page that shows the end state or ticks a box with no input of the run before it proves nothing: unprompted', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'text_visible', text: 'Order confirmed' }), item({ kind: 'checked', control: 'Send me news', checked: true })])
  tracker.update(form(news(false)), [])
  // Only WAITs: the page confirms and ticks the box on a timer.
  const waits = [entry(0, 'WAIT', undefined), entry(0, 'WAIT', undefined)]
  tracker.update(pageObservation({ url: 'https://club.test/join', text: 'Order confirmed', elements: [news(true)] }), waits)
  t.deepEqual(tracker.results().map((result) => [result.status, result.unproven]), [['judgment', 'unprompted'], ['judgment', 'unprompted']])
  t.deepEqual(tracker.open(), [])
  t.false(tracker.verified())
})

test('a change the page makes by itself is not the click\'s: a ticking clock beside a dead button', (t) => {
  const clock = (time: string) => pageObservation({ url: 'https://shop.test/pay', text: `Pay for your order. It is ${time} now.`, elements: [observedElement('e1', { name: 'Pay now' })] })
  const tracker = new ChecklistTracker([item({ kind: 'activated', control: 'Pay now' })])
  tracker.update(clock('12:00:01'), [])
  tracker.update(clock('12:00:04'), [entry(1, 'CLICK', 'Pay now', { target: 'e1', pageChanged: true })])
  t.like(tracker.results()[0], { status: 'open', evidence: 'CLICK "Pay now" landed; the page changed only as it does by itself (step 1)' })
  t.false(tracker.verified())
})

test('a click that changed nothing is done once a later input of the run changes the page; the form above it stays sent', (t) => {
  const one = observedElement('e1', { name: 'ONE' })
  const two = observedElement('e2', { name: 'TWO' })
  const tracker = new ChecklistTracker([item({ kind: 'activated', control: 'ONE' }), item({ kind: 'activated', control: 'TWO' })])
  const start = pageObservation({ url: 'https://app.test/', text: 'Click ONE, then TWO', elements: [one, two] })
  tracker.update(start, [])
  const trace = [entry(1, 'CLICK', 'ONE', { target: 'e1', pageChanged: false })]
  tracker.update(start, trace)
  t.like(tracker.results()[0], { status: 'open', evidence: 'CLICK "ONE" landed; the page did not change (step 1)' })
  trace.push(entry(2, 'CLICK', 'TWO', { target: 'e2' }))
  tracker.update(pageObservation({ url: 'https://app.test/', text: 'All done' }), trace)
  t.deepEqual(tracker.results().map((result) => result.status), ['done', 'done'])
  t.true(tracker.verified())
})

test('a field sent holding its value stays done when the application empties the form; one sent without it needs sending again', (t) => {
  const name = (value: string) => observedElement('e1', { role: 'textbox', name: 'Name', tag: 'input', value, operations: ['type', 'submit'], form: { name: 'category', fields: {} } })
  const add = observedElement('e2', { name: 'Add category', form: { name: 'category', fields: {} } })
  const sent = new ChecklistTracker([item({ kind: 'field_value', field: 'Name', value: 'Recipes' })])
  sent.update(form(name(''), add), [])
  const trace = [entry(1, 'TYPE_TEXT', 'Name', { target: 'e1' })]
  sent.update(form(name('Recipes'), add), trace)
  trace.push(entry(2, 'CLICK', 'Add category', { target: 'e2' }))
  sent.update(form(name(''), add), trace)
  t.like(sent.results()[0], { status: 'done' })
  t.regex(sent.results()[0]!.evidence!, /when its form was sent/)

  const unsent = new ChecklistTracker([item({ kind: 'field_value', field: 'Name', value: 'Recipes' })])
  unsent.update(form(name(''), add), [])
  const again = [entry(1, 'CLICK', 'Add category', { target: 'e2' })]
  unsent.update(form(name(''), add), again)
  again.push(entry(2, 'TYPE_TEXT', 'Name', { target: 'e1' }))
  unsent.update(form(name('Recipes'), add), again)
  t.like(unsent.results()[0], { status: 'open' }, 'typed into the emptied form, never sent')
  t.regex(unsent.results()[0]!.evidence!, /form was sent before it did/)
})

test('a masked field holds what the agent typed: compared with the secret filled in, and never shown', (t) => {
  const password = (value: string) => observedElement('e1', { role: 'textbox', name: 'Password', tag: 'input', type: 'password', value, operations: ['type'] })
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'Password', value: '%password%' })], (text) => text.replaceAll('%password%', 'hunter2'))
  tracker.update(form(password('')), [])
  tracker.update(form(password('•••')), [entry(1, 'TYPE_TEXT', 'Password', { target: 'e1', text: '%password%' })])
  t.like(tracker.results()[0], { status: 'done', evidence: 'Password holds the text the agent typed (masked) (step 1)' })
  const wrong = new ChecklistTracker([item({ kind: 'field_value', field: 'Password', value: '%password%' })], (text) => text.replaceAll('%password%', 'hunter2'))
  wrong.update(form(password('')), [])
  wrong.update(form(password('•••')), [entry(1, 'TYPE_TEXT', 'Password', { target: 'e1', text: 'guess' })])
  t.is(wrong.results()[0]!.status, 'open')
})

test('an open item whose control left the page after an input is gone, and conceding reports it as such', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'checked', control: 'Send me news', checked: true })])
  tracker.update(form(news(false)), [])
  t.false(tracker.gone(0))
  tracker.update(thanks, [entry(1, 'CLICK', 'Reset')])
  t.true(tracker.gone(0))
  tracker.concede()
  t.like(tracker.results()[0], { status: 'judgment', unproven: 'gone' })
  t.deepEqual(tracker.open(), [])
  t.false(tracker.verified())
})

test('a judgment item the model said an action serves becomes activated on its target once the input lands and changes the page; saying so alone does nothing', (t) => {
  const results = (...names: string[]) =>
    pageObservation({ url: 'https://find.test/?q=owl', text: 'Results for owl', elements: names.map((name, index) => observedElement(`e${index + 1}`, { name })) })
  const served = new ChecklistTracker([item({ kind: 'judgment' })])
  served.update(results('Barn owl', 'Snowy owl'), [])
  const click = entry(1, 'CLICK', 'Barn owl', { target: 'e1' })
  t.true(served.serve(0, click))
  served.update(pageObservation({ url: 'https://find.test/barn-owl', text: 'The barn owl' }), [click])
  t.like(served.results()[0], { status: 'done', check: { kind: 'activated', control: 'Barn owl' } })
  t.regex(served.results()[0]!.evidence!, /CLICK "Barn owl", which the model said serves this, changed the page/)
  t.true(served.verified())

  // A click that changed nothing, or a serves answer on an action that never landed, leave it a judgment.
  for (const fields of [{ pageChanged: false }, { stale: true, pageChanged: false }]) {
    const idle = new ChecklistTracker([item({ kind: 'judgment' })])
    idle.update(results('Barn owl'), [])
    const tried = entry(1, 'CLICK', 'Barn owl', { target: 'e1', ...fields })
    idle.serve(0, tried)
    idle.update(results('Barn owl'), [tried])
    t.like(idle.results()[0], { status: 'judgment', check: { kind: 'judgment' } })
    t.false(idle.verified())
  }
  // Only a judgment item can be served.
  const checkable = new ChecklistTracker([item({ kind: 'text_visible', text: 'The barn owl' })])
  t.false(checkable.serve(0, click))
})

test('a disputed item holds DONE back no more and leaves the run unverified; a dispute never makes an item done, the page still can', (t) => {
  const tracker = new ChecklistTracker([item({ kind: 'activated', control: 'Delete page' }), item({ kind: 'text_visible', text: 'does not exist yet' })])
  const wiki = (text: string) => pageObservation({ url: 'https://wiki.test/Old', text, elements: [observedElement('e1', { name: 'Delete page' })] })
  tracker.update(wiki('Old page'), [])
  const trace = [entry(1, 'CLICK', 'Delete page', { target: 'e1' })]
  tracker.update(wiki('This page does not exist anymore'), trace)
  t.deepEqual(tracker.open().map((open) => open.check.kind), ['text_visible'])
  t.false(tracker.dispute(0, 'not_needed', 1), 'a done item cannot be disputed')
  t.true(tracker.dispute(1, 'other_wording', 1))
  t.deepEqual(tracker.open(), [])
  t.like(tracker.results()[1], { status: 'judgment', unproven: 'disputed', evidence: 'Disputed by the decision model: the page says it in other words than the item expects (step 1)' })
  t.false(tracker.verified())
  trace.push(entry(2, 'CLICK', 'Delete page', { target: 'e1' }))
  tracker.update(wiki('The page does not exist yet'), trace)
  t.like(tracker.results()[1], { status: 'done' })
  t.true(tracker.verified())
})

test('a change in the region of the control clicked is its doing, digits included: a quantity stepper, not a clock a few words on', (t) => {
  const plus = observedElement('e1', { name: '+' })
  const cart = (quantity: number, time: string) =>
    pageObservation({ url: 'https://shop.test/cart', text: `Linen shirt − ${quantity} + Subtotal: $${quantity * 39}.00 It is ${time} now`, elements: [plus] })
  const stepped = new ChecklistTracker([item({ kind: 'activated', control: '+' })])
  stepped.update(cart(1, '12:00:01'), [])
  stepped.update(cart(2, '12:00:03'), [entry(1, 'CLICK', '+', { target: 'e1' })])
  t.like(stepped.results()[0], { status: 'done' })
  const dead = new ChecklistTracker([item({ kind: 'activated', control: '+' })])
  dead.update(cart(1, '12:00:01'), [])
  dead.update(cart(1, '12:00:03'), [entry(1, 'CLICK', '+', { target: 'e1' })])
  t.like(dead.results()[0], { status: 'open' })
})

test('a field done when a suggestion was picked stays done though the pick filled it with more than was typed', (t) => {
  const city = (value: string) => observedElement('e1', { role: 'combobox', name: 'City', tag: 'input', value, operations: ['type'] })
  const suggestion = observedElement('e2', { role: 'option', name: 'Porto, Portugal' })
  const tracker = new ChecklistTracker([item({ kind: 'field_value', field: 'City', value: 'Porto' }), item({ kind: 'activated', control: 'Porto, Portugal' })])
  tracker.update(form(city('')), [])
  const trace = [entry(1, 'TYPE_TEXT', 'City', { target: 'e1' })]
  tracker.update(form(city('Porto'), suggestion), trace)
  trace.push(entry(2, 'CLICK', 'Porto, Portugal', { target: 'e2' }))
  tracker.update(pageObservation({ url: 'https://club.test/join', text: 'Weather in Porto, Portugal', elements: [city('Porto, Portugal')] }), trace)
  t.deepEqual(tracker.results().map((result) => result.status), ['done', 'done'])
  t.true(tracker.verified())
})
