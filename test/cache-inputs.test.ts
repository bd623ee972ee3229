import test from 'ava'
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// The replay cache learns the newer operations from the same table: a key sent to the page or to a
// control, and a drag onto another control or along a track, are stored with what they need (the key,
// the destination by what it was, the move) and replayed with no decision request.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function runGoal(page: Page, goal: string, steps: ScriptStep[], cache: string) {
  const scripted = scriptedModel(steps)
  const result = await agent(page).goal(goal, { decisions: scripted.model, text: textModel('unused'), evaluator: evaluatorModel(0.9), checklist: false, cache })
  return { scripted, result }
}

async function storedSteps(dir: string): Promise<Record<string, unknown>[]> {
  const [file] = await readdir(dir)
  return JSON.parse(await readFile(join(dir, file!), 'utf8')).steps
}

test('PRESS on the page and on a listbox is stored with its keys and replayed without the model', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-inputs-'))
  const goal = 'Close the newsletter and choose the History shelf.'
  const steps: ScriptStep[] = [
    { operation: 'PRESS', target: 'page', key: 'Escape' },
    { operation: 'PRESS', target: 'Shelf', key: 'ArrowDown' },
    { operation: 'PRESS', target: 'Shelf', key: 'Enter' },
    { operation: 'DONE' },
  ]
  const first = await runGoal(await chrome.open(t, servers.site.url('sites/inputs/keys.html')), goal, steps, dir)
  t.is(first.result.status, 'success', first.result.error?.message)
  t.like(await storedSteps(dir), [{ operation: 'PRESS', onFocus: true, key: 'Escape' }, { operation: 'PRESS', key: 'ArrowDown', target: { name: 'Shelf' } }, { operation: 'PRESS', key: 'Enter' }])

  const page = await chrome.open(t, servers.site.url('sites/inputs/keys.html'))
  const second = await runGoal(page, goal, [{ operation: 'DONE' }], dir)
  t.is(second.result.status, 'success', second.result.error?.message)
  t.deepEqual(second.result.trace.map((entry) => [entry.operation, entry.key, entry.cached]), [
    ['PRESS', 'Escape', true],
    ['PRESS', 'ArrowDown', true],
    ['PRESS', 'Enter', true],
    ['DONE', undefined, undefined],
  ])
  t.is(await page.$eval('#status', (status) => status.textContent), 'Shelf chosen: History')
})

test('DRAG onto another control and along a track is stored with its destination and replayed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-inputs-'))
  const goal = 'Read Item C first and turn the volume up.'
  const steps: ScriptStep[] = [{ operation: 'DRAG', target: 'Item C', to: 'Item A' }, { operation: 'DRAG', target: 'Volume', to: 'right-50' }, { operation: 'DONE' }]
  const first = await runGoal(await chrome.open(t, servers.site.url('sites/inputs/drag.html')), goal, steps, dir)
  t.is(first.result.status, 'success', first.result.error?.message)
  t.like(await storedSteps(dir), [{ operation: 'DRAG', target: { name: 'Item C' }, to: { name: 'Item A' } }, { operation: 'DRAG', target: { name: 'Volume' }, to: 'right-50' }])

  const page = await chrome.open(t, servers.site.url('sites/inputs/drag.html'))
  const second = await runGoal(page, goal, [{ operation: 'DONE' }], dir)
  t.is(second.result.status, 'success', second.result.error?.message)
  t.deepEqual(second.result.trace.map((entry) => [entry.operation, entry.to, entry.cached]), [
    ['DRAG', 'Item A', true],
    ['DRAG', 'right-50', true],
    ['DONE', undefined, undefined],
  ])
  t.true(Number(await page.$eval('#volume', (volume) => (volume as HTMLInputElement).value)) > 50)
})
