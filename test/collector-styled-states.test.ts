import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { observe } from '../src/collector/observe.ts'
import type { Observation } from '../src/collector/observation.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel } from './helpers/goal-scripted-model.ts'

// States a page shows only by styling, in real Chrome: a class word on the control, a look that sets
// it apart from its alike siblings, ARIA winning over both; a click that flips such a state changes
// the page; a menu drawn with a hidden checkbox is offered by its label.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path), { waitUntil: 'load' })
  return page
}

async function seen(t: { teardown(fn: () => unknown): void }, page: Page): Promise<Observation> {
  const snapshot = await observe(page)
  t.teardown(() => snapshot.dispose())
  await snapshot.ready
  return snapshot.observation
}

const stateOf = (observation: Observation, name: string) => observation.elements.find((element) => element.name === name)?.state

test('a class word on the control is its state: pressed on a button, selected on anything else', async (t) => {
  const page = await open(t, 'sites/states/toggles.html')
  const before = await seen(t, page)
  t.deepEqual(stateOf(before, 'Odd'), { pressed: true })
  t.is(stateOf(before, 'Even'), undefined)
  t.deepEqual(stateOf(before, 'Basic'), { selected: true })
  t.is(stateOf(before, 'Pro'), undefined)
  // `is-selected` is a class word, but the card's aria-selected="false" wins.
  t.deepEqual(stateOf(before, 'Max'), { selected: false })
  t.is(stateOf(before, 'Like'), undefined)

  await page.click('#like')
  await page.click('#rows tr:nth-child(2)')
  const after = await seen(t, page)
  t.deepEqual(stateOf(after, 'Like'), { pressed: true })
  t.deepEqual(stateOf(after, 'beta.txt 5 KB'), { selected: true })
  t.is(stateOf(after, 'alpha.txt 2 KB'), undefined)
})

test('a look unlike its alike siblings is a state; a lone bold button is not pressed', async (t) => {
  const page = await open(t, 'sites/states/toggles.html')
  const observation = await seen(t, page)
  t.deepEqual(stateOf(observation, 'Week'), { pressed: true })
  t.is(stateOf(observation, 'Day'), undefined)
  t.is(stateOf(observation, 'Month'), undefined)
  t.is(stateOf(observation, 'Alone'), undefined)
})

test('a look the pointer gives a control (its :hover rule) is not a state', async (t) => {
  const page = await open(t, 'sites/states/toggles.html')
  await page.hover('#tools .tool:nth-child(2)')
  const observation = await seen(t, page)
  t.is(stateOf(observation, 'Copy'), undefined)
  t.is(stateOf(observation, 'Cut'), undefined)
})

test('a click that moves a class toggle is page_changed, and the next request shows the new state', async (t) => {
  const page = await open(t, 'sites/states/toggles.html')
  const scripted = scriptedModel([{ operation: 'CLICK', target: 'Even' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Choose Even.', { decisions: scripted.model, text: textModel('x'), checklist: false })
  t.is(result.status, 'success')
  t.is(scripted.seen[1]!.recent[0]!.outcome, 'page_changed')
  const even = scripted.seen[1]!.elements.find((element) => element.name === 'Even')
  t.deepEqual(even?.state, { pressed: true })
})

test('a menu drawn with a hidden checkbox is offered by its label, with the checkbox state, and opens on a click', async (t) => {
  const page = await open(t, 'sites/states/more-menu.html')
  const before = await seen(t, page)
  t.deepEqual(stateOf(before, 'More'), { checked: false })
  t.deepEqual(stateOf(before, 'Tools'), { checked: false })
  t.false(before.elements.some((element) => element.name === 'Delete'))

  const scripted = scriptedModel([{ operation: 'CLICK', target: 'More' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Open the More menu.', { decisions: scripted.model, text: textModel('x'), checklist: false })
  t.is(result.status, 'success')
  t.is(scripted.seen[1]!.recent[0]!.outcome, 'page_changed')
  const names = scripted.seen[1]!.elements.map((element) => element.name)
  t.true(['Move', 'Delete', 'Protect'].every((name) => names.includes(name)), names.join(', '))
  t.deepEqual(scripted.seen[1]!.elements.find((element) => element.name === 'More')?.state, { checked: true })
})
