import test from 'ava'
import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// The goal half of the replay cache on the fixture sites: a run that succeeded is replayed with no
// decision request per step, and the model takes over where the page no longer fits.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  return page
}

const FORM_STEPS: ScriptStep[] = [
  { operation: 'SELECT', target: /Size/, option: 'Large' },
  { operation: 'CLICK', target: /Thick/ },
  { operation: 'CLICK', target: 'Place order' },
  { operation: 'DONE' },
]
const FORM_GOAL = 'Order a large pizza with a thick crust.'

async function runGoal(page: Page, steps: ScriptStep[], cache: unknown, options: Record<string, unknown> = {}) {
  const scripted = scriptedModel(steps)
  const result = await agent(page).goal(FORM_GOAL, {
    decisions: scripted.model,
    text: textModel('unused'),
    evaluator: evaluatorModel(0.9),
    checklist: false,
    cache,
    ...options,
  } as never)
  return { scripted, result, profile: await result.profiling() }
}

test('a successful goal is stored, then replayed with one decision request to confirm DONE', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  const first = await runGoal(await open(t, 'sites/form/index.html'), FORM_STEPS, dir)
  t.is(first.result.status, 'success', first.result.error?.message)
  t.is(first.result.decisions, 4)
  t.is(first.profile.cache, 'miss')
  const files = await readdir(dir)
  t.is(files.length, 1)
  const entry = JSON.parse(await readFile(join(dir, files[0]!), 'utf8'))
  t.is(entry.goal, FORM_GOAL)
  t.deepEqual(entry.steps.map((step: { operation: string }) => step.operation), ['SELECT', 'CLICK', 'CLICK'])

  const page = await open(t, 'sites/form/index.html')
  const second = await runGoal(page, [{ operation: 'DONE' }], dir)
  t.is(second.result.status, 'success', second.result.error?.message)
  t.is(second.result.decisions, 1)
  t.is(second.result.steps, 3)
  t.is(second.profile.cache, 'hit')
  t.deepEqual(
    second.result.trace.map((entry) => [entry.operation, entry.cached, entry.match]),
    [
      ['SELECT', true, 'exact'],
      ['CLICK', true, 'exact'],
      ['CLICK', true, 'exact'],
      ['DONE', undefined, undefined],
    ],
  )
  t.is(second.scripted.seen.length, 1)
})
