import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { BlockedError } from '../src/errors.ts'
import type { GoalResult } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textModel, type ScriptStep, type SeenRequest } from './helpers/goal-scripted-model.ts'

// Keys where there is no field, in real Chrome, each through goal() as a model would choose it
// (fixture sites/keys): a terminal that reads keys, a page's own shortcuts on the document, a game
// on a canvas a person tabs to, and a contenteditable note.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function goal(page: Page, steps: ScriptStep[], options: { texts?: string[]; secrets?: Record<string, string> } = {}): Promise<{ result: GoalResult; seen: SeenRequest[] }> {
  const scripted = scriptedModel(steps)
  const result = await agent(page).goal('Use the page.', {
    decisions: scripted.model,
    text: textModel(...(options.texts ?? []), 'unused'),
    checklist: false,
    ...(options.secrets ? { secrets: options.secrets } : {}),
  })
  return { result, seen: scripted.seen }
}

const textOf = (page: Page, selector: string) => page.$eval(selector, (element) => (element as HTMLElement).innerText)

/** The names of the elements a question of the request offers (`page` as itself). */
function offered(request: SeenRequest | undefined, question: string): string[] {
  const ids = request?.questions[question] ?? []
  return ids.map((id) => request!.elements.find((element) => element.id === id)?.name ?? id)
}

test('TYPE_TEXT into a terminal that reads keys types the command key by key, and PRESS Enter runs it', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/terminal.html'))
  const { result, seen } = await goal(
    page,
    [{ operation: 'TYPE_TEXT', target: 'Console' }, { operation: 'PRESS', target: 'Console', key: 'Enter' }, { operation: 'DONE' }],
    { texts: ['echo ship it'] },
  )
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'type_text_target').includes('Console'))
  t.true(offered(seen[0], 'press_target').includes('Console'))
  t.is(await textOf(page, '#out'), '$ echo ship it\nship it')
  // The line the terminal echoes reaches the next request as the page shows it.
  t.regex(seen[1]!.page.text, /\$ echo ship it/)
})

test('TYPE_TEXT into a terminal that hands focus away after the first key: typing stops there, the run ends input_redirected', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/terminal.html?steal'))
  const { result } = await goal(page, [{ operation: 'TYPE_TEXT', target: 'Console' }, { operation: 'DONE' }], { texts: ['deploy'] })
  t.is(result.status, 'error')
  t.true(result.error instanceof BlockedError && result.error.reason === 'input_redirected', result.error?.message)
  t.is(await textOf(page, '#line'), '$ d')
})

test('a secret is never typed as keys into an element that is no field', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/terminal.html'))
  const { result } = await goal(page, [{ operation: 'TYPE_TEXT', target: 'Console' }, { operation: 'DONE' }], {
    texts: ['echo %password%'],
    secrets: { password: 'hunter2-secret' },
  })
  t.is(result.status, 'error')
  t.regex(result.error?.message ?? '', /a secret is typed only into a field/)
  t.is(await textOf(page, '#line'), '$ ')
  t.false(JSON.stringify(result).includes('hunter2-secret'))
})

test('PRESS j twice on a page whose document reads shortcuts selects the second message; ? shows its help', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/shortcuts.html'))
  const { result, seen } = await goal(page, [
    { operation: 'PRESS', target: 'page', key: 'j' },
    { operation: 'PRESS', target: 'page', key: 'j' },
    { operation: 'PRESS', target: 'page', key: '?' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.true(seen[0]!.questions.press_key!.includes('Control+K'))
  t.is(await textOf(page, '#status'), 'Selected: Lunch on Friday? (2 of 5)')
  t.false(await page.$eval('#help', (help) => (help as HTMLElement).hidden))
})

test('PRESS Control+K on the page opens its command palette', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/shortcuts.html'))
  const { result, seen } = await goal(page, [{ operation: 'PRESS', target: 'page', key: 'Control+K' }, { operation: 'DONE' }])
  t.is(result.status, 'success', result.error?.message)
  t.false(await page.$eval('#palette', (palette) => (palette as HTMLElement).hidden))
  t.true(offered(seen[1], 'type_text_target').includes('Command'))
})

test('a page with no key reader offers the named keys only: the request stays as it was', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/note.html'))
  const { result, seen } = await goal(page, [{ operation: 'TYPE_TEXT', target: 'Note' }, { operation: 'CLICK', target: 'Save note' }, { operation: 'DONE' }], {
    texts: ['Buy oat milk\nand bread'],
  })
  t.is(result.status, 'success', result.error?.message)
  t.false(seen[0]!.questions.press_key!.includes('j'))
  t.true(seen[0]!.questions.press_key!.includes('Control+A'))
  // A contenteditable note is a field: its text is replaced as a value, line breaks kept.
  t.is(await page.$eval('#saved', (saved) => saved.textContent), 'Saved: Buy oat milk\nand bread')
})

test('PRESS arrows and letters on a game canvas a person tabs to moves its player to the flag', async (t) => {
  const page = await chrome.open(t, servers.site.url('sites/keys/game.html'))
  const { result, seen } = await goal(page, [
    { operation: 'PRESS', target: 'Game board', key: 'ArrowRight' },
    { operation: 'PRESS', target: 'Game board', key: 'd' },
    { operation: 'PRESS', target: 'Game board', key: 's' },
    { operation: 'DONE' },
  ])
  t.is(result.status, 'success', result.error?.message)
  t.true(offered(seen[0], 'press_target').includes('Game board'))
  t.is(await textOf(page, '#result'), 'You reached the flag!')
})
