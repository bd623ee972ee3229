import test from 'ava'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
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

const open = (t: Parameters<typeof chrome.page>[0], path: string) => chrome.open(t, servers.site.url(path))

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

const SEARCH_GOAL = 'Search for dune.'
const SEARCH_STEPS: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }]

async function search(t: Parameters<typeof chrome.page>[0], steps: ScriptStep[], cache: unknown, options: Record<string, unknown> = {}) {
  const page = await open(t, 'sites/search/index.html')
  const scripted = scriptedModel(steps)
  const text = textModel('dune')
  const result = await agent(page).goal(SEARCH_GOAL, {
    decisions: scripted.model,
    text,
    evaluator: evaluatorModel(0.9),
    checklist: false,
    cache,
    ...options,
  } as never)
  return { page, scripted, text, result, profile: await result.profiling() }
}

test('typed values are kept in the entry and typed again without the text model', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  const first = await search(t, SEARCH_STEPS, dir)
  t.is(first.result.status, 'success', first.result.error?.message)
  t.is(first.text.doGenerateCalls.length, 1)
  const [file] = await readdir(dir)
  t.is(JSON.parse(await readFile(join(dir, file!), 'utf8')).steps[0].text, 'dune')

  const second = await search(t, [{ operation: 'DONE' }], dir)
  t.is(second.result.status, 'success', second.result.error?.message)
  t.is(second.profile.cache, 'hit')
  t.is(second.text.doGenerateCalls.length, 0)
  t.like(second.result.trace[0], { operation: 'TYPE_TEXT', text: 'dune', cached: true })
  t.regex(second.page.url(), /results\.html\?q=dune/)
})

test('typedValues: false keeps values out of the entry; the text model writes them again at replay', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  const cache = { store: dir, typedValues: false }
  const first = await search(t, SEARCH_STEPS, cache)
  t.is(first.result.status, 'success', first.result.error?.message)
  const [file] = await readdir(dir)
  const stored = await readFile(join(dir, file!), 'utf8')
  t.false(stored.includes('dune"'), stored)

  const second = await search(t, [{ operation: 'DONE' }], cache)
  t.is(second.profile.cache, 'hit')
  t.is(second.text.doGenerateCalls.length, 1)
  t.like(second.result.trace[0], { operation: 'TYPE_TEXT', text: 'dune', cached: true })
})

test('confirmDone: false ends a replay with no request once the page verifies the checklist', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  const checklist = [{ description: 'Results for dune are shown', check: { kind: 'text_visible', text: 'Results for "dune"' } }]
  const cache = { store: dir, confirmDone: false }
  const first = await search(t, SEARCH_STEPS, cache, { checklist })
  t.true(first.result.verified, first.result.error?.message)
  const second = await search(t, [{ operation: 'BLOCKED' }], cache, { checklist })
  t.is(second.result.status, 'success', second.result.error?.message)
  t.true(second.result.verified)
  t.is(second.result.decisions, 0)
  t.is(second.scripted.seen.length, 0)
  t.like(second.result.trace.at(-1), { operation: 'DONE', cached: true })

  // A checklist the page cannot verify (a judgment) still gets its confirmation request.
  const judged = [{ description: 'The search worked', check: { kind: 'judgment' } }]
  const other = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  await search(t, SEARCH_STEPS, { store: other }, { checklist: false })
  const confirmed = await search(t, [{ operation: 'DONE' }], { store: other, confirmDone: false }, { checklist: judged })
  t.is(confirmed.result.decisions, 1)
})

test('approve is asked again at replay; a refusal there hands the run to the model', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  const risky: ScriptStep[] = [{ operation: 'SELECT', target: /Size/, option: 'Large' }, { operation: 'CLICK', target: 'Place order', risk: 0.9 }, { operation: 'DONE' }]
  const asked: string[] = []
  const approve = async (action: { targetName?: string }) => {
    asked.push(action.targetName ?? '')
    return true
  }
  const first = await runGoal(await open(t, 'sites/form/index.html'), risky, dir, { approve })
  t.is(first.result.status, 'success', first.result.error?.message)
  t.deepEqual(asked, ['Place order'])

  const second = await runGoal(await open(t, 'sites/form/index.html'), [{ operation: 'DONE' }], dir, { approve })
  t.is(second.profile.cache, 'hit')
  t.deepEqual(asked, ['Place order', 'Place order'])
  t.like(second.result.trace[1], { cached: true, approved: true, risk: 0.9 })

  const third = await runGoal(await open(t, 'sites/form/index.html'), [{ operation: 'DONE' }], dir, { approve: () => false })
  t.like(third.result.trace[1], { cached: true, approved: false })
  t.is(third.result.trace[2]!.cached, undefined)
  t.is(third.result.decisions, 1)
})

test('an entry that is not JSON, or a store that throws, never fails a run', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-'))
  await runGoal(await open(t, 'sites/form/index.html'), FORM_STEPS, dir)
  const [file] = await readdir(dir)
  await writeFile(join(dir, file!), '{"version": 1, "kind": "go')
  const corrupt = await runGoal(await open(t, 'sites/form/index.html'), FORM_STEPS, dir)
  t.is(corrupt.result.status, 'success', corrupt.result.error?.message)
  t.is(corrupt.profile.cache, 'miss')
  t.is(corrupt.result.decisions, 4)
  // The run replaced the corrupt entry with its own.
  t.is(JSON.parse(await readFile(join(dir, file!), 'utf8')).steps.length, 3)

  const broken = { get: async () => Promise.reject(new Error('store down')), set: () => { throw new Error('store down') } }
  const failing = await runGoal(await open(t, 'sites/form/index.html'), FORM_STEPS, broken)
  t.is(failing.result.status, 'success', failing.result.error?.message)
  t.is(failing.profile.cache, 'miss')
})

test('a run that failed stores nothing; the entry of a goal is not used for another page shape', async (t) => {
  const store = new Map<string, unknown>()
  const failed = await runGoal(await open(t, 'sites/form/index.html'), [{ operation: 'BLOCKED' }], store)
  t.is(failed.result.status, 'error')
  t.is(store.size, 0)
  await runGoal(await open(t, 'sites/form/index.html'), FORM_STEPS, store)
  t.is(store.size, 1)
  const elsewhere = await runGoal(await open(t, 'sites/search/index.html'), [{ operation: 'BLOCKED' }], store)
  t.is(elsewhere.profile.cache, 'miss')
  t.is(elsewhere.result.decisions, 1)
})
