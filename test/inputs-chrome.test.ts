import test from 'ava'
import type { Page } from 'puppeteer-core'
import { observe } from '../src/collector/observe.ts'
import agent from '../src/index.ts'
import type { GoalResult, TraceEntry } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel, type ScriptStep, type SeenRequest, type StateElement } from './helpers/goal-scripted-model.ts'

// The inputs besides a plain click and typed text, in real Chrome, each through goal() as a model would
// choose it: a click into a field, a key press, a hover, several options of one list, a drag. Each page
// shows what it received (its text, window.counts of trusted events). The hostile variants, where the
// page swaps or moves what the input is aimed at, are in inputs-hostile.test.ts.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

type Counts = Record<string, number>

const countsOf = (page: Page) => page.evaluate(() => (window as unknown as { counts: Counts }).counts)
const statusOf = (page: Page) => page.$eval('#status', (status) => status.textContent)

async function goal(page: Page, steps: ScriptStep[], ...texts: string[]): Promise<{ result: GoalResult; seen: SeenRequest[] }> {
  const scripted = scriptedModel(steps)
  const result = await agent(page).goal('Use the page.', { decisions: scripted.model, text: textModel(...texts, 'unused'), checklist: false })
  return { result, seen: scripted.seen }
}

/** The trace's actions (DONE left out), by the fields these tests read. */
function actions(result: GoalResult): Partial<TraceEntry>[] {
  return result.trace
    .filter((entry) => entry.operation !== 'DONE')
    .map((entry) => ({
      operation: entry.operation,
      targetName: entry.targetName,
      ...(entry.key !== undefined ? { key: entry.key } : {}),
      ...(entry.to !== undefined ? { to: entry.to } : {}),
      stale: entry.stale,
      pageChanged: entry.pageChanged,
    }))
}

function named(request: SeenRequest | undefined, name: string): StateElement {
  const element = request?.elements.find((candidate) => candidate.name === name)
  if (!element) throw new Error(`no element named ${name} in the request (${request?.elements.map((candidate) => candidate.name).join(', ')})`)
  return element
}

/** The names of the elements a question of the request offers. */
function offered(request: SeenRequest | undefined, question: string): string[] {
  const ids = request?.questions[question] ?? []
  return ids.map((id) => request!.elements.find((element) => element.id === id)?.name ?? id)
}

const focusedNames = (request: SeenRequest | undefined) => (request?.elements ?? []).filter((element) => element.focused).map((element) => element.name)

// ---------------------------------------------------------------- a click into a field

test('CLICK into a text field and a textarea puts focus and the caret in each', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/fields.html'))
  const { result, seen } = await goal(page, [{ operation: 'CLICK', target: 'Postcode' }, { operation: 'CLICK', target: 'Notes' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(actions(result), [
    { operation: 'CLICK', targetName: 'Postcode', stale: false, pageChanged: true },
    { operation: 'CLICK', targetName: 'Notes', stale: false, pageChanged: true },
  ])
  t.like(await countsOf(page), { 'pointerdown:postcode': 1, 'focus:postcode': 1, 'pointerdown:notes': 1, 'focus:notes': 1 })
  t.is(await statusOf(page), 'Editing notes')
  // The caret is in the field: focus, and a collapsed selection inside its value.
  t.deepEqual(
    await page.evaluate(() => {
      const notes = document.activeElement as HTMLTextAreaElement
      return { id: notes.id, collapsed: notes.selectionStart === notes.selectionEnd, inside: notes.selectionStart <= notes.value.length }
    }),
    { id: 'notes', collapsed: true, inside: true },
  )
  // Each next request shows the field holding focus.
  t.deepEqual(focusedNames(seen[0]), [])
  t.deepEqual(focusedNames(seen[1]), ['Postcode'])
  t.deepEqual(focusedNames(seen[2]), ['Notes'])
  // The fields' pointerdown listeners do not make them draggable.
  t.false(seen[0]!.operations.includes('DRAG'))
})

// The dialog put up on focus takes the click's release, which the watch stops: the click landed all the same.
const endsOnFocus = [
  { where: 'in the page', open: (page: Page) => page.goto(servers.site.url('sites/inputs/focus-ends.html')) },
  { where: 'in the page (the dialog in a task after the click)', open: (page: Page) => page.goto(servers.site.url('sites/inputs/focus-ends.html?later')) },
  { where: 'in an open shadow root', open: (page: Page) => page.goto(servers.site.url('sites/inputs/focus-ends.html?shadow')) },
  {
    where: 'in a cross-origin frame',
    open: (page: Page) => page.setContent(`<iframe src="${servers.other.url('sites/inputs/focus-ends.html')}" width="600" height="400"></iframe>`, { waitUntil: 'load' }),
  },
]
for (const { where, open } of endsOnFocus) {
  test(`CLICK into a field ${where} whose focus ends the task and puts up a dialog that takes focus: the click landed, DONE ends the run success`, async (t) => {
    const page = await chrome.page(t)
    await open(page)
    const frame = page.frames().find((candidate) => candidate.url().includes('focus-ends.html'))!
    // On a busy machine a new frame can report after the first observation: the model waits for the field.
    let clicked = -1
    const scripted = scriptedModel((request, index) => {
      if (clicked >= 0) return { operation: 'DONE' }
      if (!request.elements.some((element) => element.name === 'Nickname')) return { operation: 'WAIT' }
      clicked = index
      return { operation: 'CLICK', target: 'Nickname' }
    })
    const result = await agent(page).goal('Use the page.', { decisions: scripted.model, text: textModel('unused'), checklist: false })
    t.is(result.status, 'success', result.error?.message)
    t.deepEqual(
      actions(result).filter((action) => action.operation !== 'WAIT'),
      [{ operation: 'CLICK', targetName: 'Nickname', stale: false, pageChanged: true }],
    )
    const counts = await frame.evaluate(() => (window as unknown as { counts: Counts }).counts)
    t.is(counts['focus:nickname'], 1)
    t.is(counts['pointerup:overlay'] ?? 0, 0)
    t.is(counts['click:overlay'] ?? 0, 0)
    t.is(await frame.$eval('#status', (status) => status.textContent), 'Task complete')
    // The next request shows where the page put focus.
    t.deepEqual(focusedNames(scripted.seen[clicked + 1]), ['Close'])
  })
}

// ---------------------------------------------------------------- PRESS

test('PRESS Escape on the page closes a modal that listens on the document', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html'))
  const { result, seen } = await goal(page, [{ operation: 'PRESS', target: 'page', key: 'Escape' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(seen[0]!.questions.press_target!.includes('page'))
  t.true(seen[0]!.questions.press_key!.includes('Escape'))
  t.deepEqual(actions(result), [{ operation: 'PRESS', targetName: undefined, key: 'Escape', stale: false, pageChanged: true }])
  t.is(await statusOf(page), 'Newsletter closed')
  t.like(await countsOf(page), { escape: 1, delete: 0 })
  t.is(await page.$('#modal'), null)
})

test('PRESS Enter in a search field outside any form runs its search', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html?nomodal'))
  const { result } = await goal(
    page,
    [{ operation: 'TYPE_TEXT', target: 'Search the catalogue' }, { operation: 'PRESS', target: 'Search the catalogue', key: 'Enter' }, { operation: 'DONE' }],
    'Dune',
  )
  t.is(result.status, 'success', result.error?.message)
  t.like(actions(result)[1], { operation: 'PRESS', targetName: 'Search the catalogue', key: 'Enter', stale: false, pageChanged: true })
  t.is(await statusOf(page), 'Results for Dune')
  t.like(await countsOf(page), { enter: 1, delete: 0 })
})

test('PRESS ArrowDown twice and Enter in a focusable listbox picks the third option', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html?nomodal'))
  const { result } = await goal(page, [
    { operation: 'PRESS', target: 'Shelf', key: 'ArrowDown' },
    { operation: 'PRESS', target: 'Shelf', key: 'ArrowDown' },
    { operation: 'PRESS', target: 'Shelf', key: 'Enter' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(
    actions(result).map((entry) => [entry.operation, entry.targetName, entry.key, entry.pageChanged]),
    [
      ['PRESS', 'Shelf', 'ArrowDown', true],
      ['PRESS', 'Shelf', 'ArrowDown', true],
      ['PRESS', 'Shelf', 'Enter', true],
    ],
  )
  t.is(await statusOf(page), 'Shelf chosen: Science')
  t.is(await page.$eval('#shelf', (shelf) => shelf.getAttribute('aria-activedescendant')), 's3')
})

test('PRESS Control+A then Backspace clears a field', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html?nomodal'))
  const { result, seen } = await goal(page, [
    { operation: 'PRESS', target: 'First name', key: 'Control+A' },
    { operation: 'PRESS', target: 'First name', key: 'Backspace' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(
    actions(result).map((entry) => [entry.operation, entry.targetName, entry.key, entry.stale]),
    [
      ['PRESS', 'First name', 'Control+A', false],
      ['PRESS', 'First name', 'Backspace', false],
    ],
  )
  t.true(actions(result)[1]!.pageChanged)
  t.is(named(seen[0], 'First name').value, 'Ada Lovelace')
  t.is(named(seen[2], 'First name').value, '')
  t.is(await page.$eval('#first', (first) => (first as HTMLInputElement).value), '')
  t.is(await statusOf(page), 'First name cleared')
})

test('PRESS Tab moves focus to the next field, and the next request shows it focused', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html?nomodal'))
  const { result, seen } = await goal(page, [{ operation: 'PRESS', target: 'First name', key: 'Tab' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(actions(result), [{ operation: 'PRESS', targetName: 'First name', key: 'Tab', stale: false, pageChanged: true }])
  t.is(await page.evaluate(() => document.activeElement?.id), 'second')
  t.deepEqual(focusedNames(seen[0]), [])
  t.deepEqual(focusedNames(seen[1]), ['Second name'])
})

test('PRESS Tab in a scrolled textarea leaves it scrolled where it was: focusing it scrolls nothing', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/fields.html'))
  await page.$eval('#notes', (notes) => {
    ;(notes as HTMLTextAreaElement).value = Array.from({ length: 60 }, (_, line) => `Line ${line + 1}`).join('\n')
    notes.scrollTop = 400
  })
  const { result } = await goal(page, [{ operation: 'PRESS', target: 'Notes', key: 'Tab' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.is(await page.$eval('#notes', (notes) => notes.scrollTop), 400)
})

// ---------------------------------------------------------------- HOVER

test('HOVER opens a menu shown by a :hover style rule, and its item is then clicked', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/menus.html'))
  await page.mouse.move(0, 0)
  const { result, seen } = await goal(page, [{ operation: 'HOVER', target: 'Products' }, { operation: 'CLICK', target: 'Laptops' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'hover_target').includes('Products'))
  t.true(offered(seen[0], 'hover_target').includes('Help'))
  t.false(offered(seen[0], 'click_target').includes('Laptops'))
  t.true(offered(seen[1], 'click_target').includes('Laptops'))
  t.deepEqual(actions(result), [
    { operation: 'HOVER', targetName: 'Products', stale: false, pageChanged: true },
    { operation: 'CLICK', targetName: 'Laptops', stale: false, pageChanged: true },
  ])
  t.is(await statusOf(page), 'Opened: Laptops')
})

test('HOVER is offered where a style rule shows another element on hover, not where one only recolours or hovers the page', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<style>
      .menu li:hover > ul { display: block }
      .menu ul { display: none }
      tr:hover td { background: #eee }
      body:hover .banner { display: block }
    </style>
    <ul class="menu"><li><a href="#p">Products</a><ul><li><a href="#l">Laptops</a></li></ul></li></ul>
    <table><tr><td><a href="#r">Row link</a></td></tr></table>
    <a href="#plain">Plain link</a>`)
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  const hoverable = snapshot.observation.elements.filter((element) => element.operations.includes('hover')).map((element) => element.name)
  t.deepEqual(hoverable, ['Products'])
})

test('a :hover rule the page adds later counts for the controls observed after it, as one in a sheet added later does', async (t) => {
  const page = await chrome.page(t)
  await page.setContent(`<style>.menu ul { display: none }</style>
    <ul class="menu"><li><a href="#p">Products</a><ul><li><a href="#l">Laptops</a></li></ul></li></ul>`)
  const hoverable = (snapshot: Awaited<ReturnType<typeof observe>>) =>
    snapshot.observation.elements.filter((element) => element.operations.includes('hover')).map((element) => element.name)
  const first = await observe(page)
  t.deepEqual(hoverable(first), [])
  // Through the CSSOM: no markup changes for the rule. A second menu is added, so it is described anew.
  await page.evaluate(() => {
    document.styleSheets[0]!.insertRule('.menu li:hover > ul { display: block }', 1)
    document.querySelector('.menu')!.insertAdjacentHTML('beforeend', '<li><a href="#h">Help</a><ul><li><a href="#c">Contact</a></li></ul></li>')
  })
  const second = await observe(page, { previous: first })
  t.true(hoverable(second).includes('Help'))
  // A new style element: its sheet is read too.
  await page.evaluate(() => {
    const style = document.createElement('style')
    style.textContent = '.more li:hover > ol { opacity: 1 }'
    document.head.append(style)
    document.body.insertAdjacentHTML('beforeend', '<ul class="more"><li><a href="#m">More</a><ol><li>Item</li></ol></li></ul>')
  })
  const third = await observe(page, { previous: second })
  t.teardown(() => third.dispose())
  t.true(hoverable(third).includes('More'))
})

test('HOVER opens a menu shown by a mouseenter listener, and its item is then clicked', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/menus.html'))
  await page.mouse.move(0, 0)
  const { result, seen } = await goal(page, [{ operation: 'HOVER', target: 'Help' }, { operation: 'CLICK', target: 'Contact us' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.false(offered(seen[0], 'click_target').includes('Contact us'))
  t.deepEqual(actions(result), [
    { operation: 'HOVER', targetName: 'Help', stale: false, pageChanged: true },
    { operation: 'CLICK', targetName: 'Contact us', stale: false, pageChanged: true },
  ])
  t.is(await statusOf(page), 'Opened: Contact us')
})

// ---------------------------------------------------------------- several options

test('SELECT on a <select multiple> adds an option, and removes it when chosen again', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/choices.html'))
  const { result, seen } = await goal(page, [
    { operation: 'SELECT', target: 'Toppings', option: 'Mushrooms' },
    { operation: 'SELECT', target: 'Toppings', option: 'Olives' },
    { operation: 'SELECT', target: 'Toppings', option: 'Mushrooms' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(
    actions(result).map((entry) => [entry.operation, entry.targetName, entry.stale, entry.pageChanged]),
    [
      ['SELECT', 'Toppings', false, true],
      ['SELECT', 'Toppings', false, true],
      ['SELECT', 'Toppings', false, true],
    ],
  )
  t.deepEqual(await page.$eval('#toppings', (select) => Array.from((select as HTMLSelectElement).selectedOptions, (option) => option.value)), ['Olives'])
  const chosen = (request: SeenRequest | undefined) => (named(request, 'Toppings').options ?? []).filter((option) => option.selected).map((option) => option.label)
  t.like(named(seen[0], 'Toppings').state, { multiple: true })
  t.deepEqual([chosen(seen[0]), chosen(seen[1]), chosen(seen[2]), chosen(seen[3])], [[], ['Mushrooms'], ['Mushrooms', 'Olives'], ['Olives']])
  t.is(await statusOf(page), 'Toppings: Olives')
})

test('SELECT on an aria-multiselectable listbox Ctrl-clicks, so a second option joins the first', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/choices.html'))
  const { result, seen } = await goal(page, [
    { operation: 'SELECT', target: 'Languages', option: 'English' },
    { operation: 'SELECT', target: 'Languages', option: 'French' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(
    actions(result).map((entry) => [entry.operation, entry.targetName, entry.stale, entry.pageChanged]),
    [
      ['SELECT', 'Languages', false, true],
      ['SELECT', 'Languages', false, true],
    ],
  )
  t.is(await statusOf(page), 'Languages: English, French')
  t.like(named(seen[0], 'Languages').state, { multiple: true })
  t.deepEqual(
    (named(seen[2], 'Languages').options ?? []).filter((option) => option.selected).map((option) => option.label),
    ['English', 'French'],
  )
})

// ---------------------------------------------------------------- DRAG

test('DRAG a range input by half its track raises its value by about half', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/drag.html'))
  const { result, seen } = await goal(page, [{ operation: 'DRAG', target: 'Volume', to: 'right-50' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(seen[0]!.questions.drag_to!.includes('right-50'))
  t.deepEqual(actions(result), [{ operation: 'DRAG', targetName: 'Volume', to: 'right-50', stale: false, pageChanged: true }])
  const value = Number(await page.$eval('#volume', (volume) => (volume as HTMLInputElement).value))
  t.true(value > 50 && value < 90, `volume ${value}`)
  t.true((await countsOf(page)).volume! > 0)
  t.is(await page.$eval('#volume-value', (output) => output.textContent), `Volume: ${value}`)
})

test('DRAG an ARIA slider thumb a quarter of its track to the right', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/drag.html'))
  const { result } = await goal(page, [{ operation: 'DRAG', target: 'Brightness', to: 'right-25' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.deepEqual(actions(result), [{ operation: 'DRAG', targetName: 'Brightness', to: 'right-25', stale: false, pageChanged: true }])
  const value = Number(await page.$eval('#thumb', (thumb) => thumb.getAttribute('aria-valuenow')))
  t.true(value >= 30 && value <= 40, `brightness ${value}`)
})

test('DRAG an item of a pointer-driven sortable list onto another puts it there', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/drag.html'))
  const { result, seen } = await goal(page, [{ operation: 'DRAG', target: 'Item C', to: 'Item A' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'drag_target').includes('Item C'))
  t.true(offered(seen[0], 'drag_to').includes('Item A'))
  t.deepEqual(actions(result), [{ operation: 'DRAG', targetName: 'Item C', to: 'Item A', stale: false, pageChanged: true }])
  t.is(await statusOf(page), 'Order: CABD')
  t.deepEqual(await page.$$eval('#list li', (items) => items.map((item) => item.textContent)), ['Item C', 'Item A', 'Item B', 'Item D'])
})

test('DRAG an HTML5 draggable card onto a drop zone: Chrome runs the native drag and drop', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/inputs/drag.html'))
  const { result, seen } = await goal(page, [{ operation: 'DRAG', target: 'Invoice 42', to: 'Paid invoices' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'drag_to').includes('Paid invoices'))
  // A drop zone and a card that only drags offer nothing a click would do.
  t.false(offered(seen[0], 'click_target').includes('Paid invoices'))
  t.false(offered(seen[0], 'click_target').includes('Invoice 42'))
  t.deepEqual(actions(result), [{ operation: 'DRAG', targetName: 'Invoice 42', to: 'Paid invoices', stale: false, pageChanged: true }])
  t.like(await countsOf(page), { dragstart: 1, drop: 1 })
  t.is(await statusOf(page), 'Dropped Invoice 42 on Paid invoices')
})

test('a board column that takes drops is offered to drop on though it holds cards and buttons, and never to click', async (t) => {
  const page = await chrome.open(t, servers.site.url('reach/48-kanban-html5-drag.html'))
  const { result, seen } = await goal(page, [{ operation: 'DRAG', target: 'Write release notes', to: 'Done' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'drag_to').includes('Done'))
  t.false(offered(seen[0], 'click_target').includes('Done'))
  t.regex(await page.$eval('#status', (status) => status.textContent ?? ''), /Moved “Write release notes” to Done/)
})
