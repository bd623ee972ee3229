import test, { type ExecutionContext } from 'ava'
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import { directoryStore, MAX_ENTRY_BYTES } from '../src/cache/cache-store.ts'
import { parseGoalEntry, type GoalEntry } from '../src/cache/goal-entry.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// What a replay may be trusted with: a scored match never turns "Save" into "Delete" and is rated for
// risk by the model before it acts, and a stored entry is read as warily as a model's answer (every
// string and list bounded; without typed values, nothing that reveals one).

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const SAVE_GOAL = 'Save the draft.'
const COUPON_GOAL = 'Apply the coupon SAVE-7781 and save the draft.'

const editor = (t: ExecutionContext, buttons: string) => chrome.open(t, servers.site.url(`sites/cache-trust/editor.html?buttons=${buttons}`))
const clicks = (page: Page) => page.evaluate(() => (window as unknown as { clicks: Record<string, number> }).clicks)

async function runGoal(page: Page, goal: string, steps: ScriptStep[], cache: unknown, options: Record<string, unknown> = {}) {
  const scripted = scriptedModel(steps)
  const text = textModel('SAVE-7781')
  const result = await agent(page).goal(goal, {
    decisions: scripted.model,
    text,
    evaluator: evaluatorModel(0.9),
    checklist: false,
    waitMs: 0,
    cache,
    ...options,
  } as never)
  return { result, scripted, text, cache: (await result.profiling()).cache }
}

test('a recorded "Save" is never replayed on "Delete": 20 runs on each page, no click on Delete', async (t) => {
  const store = new Map<string, unknown>()
  const saving = await editor(t, 'save')
  const learned = await runGoal(saving, SAVE_GOAL, [{ operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }], store)
  t.is(learned.result.status, 'success', learned.result.error?.message)
  for (let run = 1; run < 20; run += 1) t.is((await runGoal(saving, SAVE_GOAL, [{ operation: 'DONE' }], store)).cache, 'hit')
  t.deepEqual(await clicks(saving), { Save: 20 })

  // Same role, tag, form, nearby text and place, no word in common: no match; the model decides (here: DONE).
  const deleting = await editor(t, 'delete')
  for (let run = 0; run < 20; run += 1) {
    const { result } = await runGoal(deleting, SAVE_GOAL, [{ operation: 'DONE' }], store)
    t.is(result.steps, 0, JSON.stringify(result.trace))
  }
  t.deepEqual(await clicks(deleting), { Delete: 0 })

  // The entry still says "Save": on a page with both, the replay clicks Save, wherever it is.
  const both = await editor(t, 'both')
  for (let run = 0; run < 20; run += 1) await runGoal(both, SAVE_GOAL, [{ operation: 'DONE' }], store)
  t.deepEqual(await clicks(both), { Delete: 0, Save: 20 })
  t.is((store.values().next().value as GoalEntry).steps[0]!.target!.name, 'Save')
})

test('a scored match is rated for risk by the model before the input, and approve is asked when it is risky', async (t) => {
  const store = new Map<string, unknown>()
  const asked: { targetName?: string; risk: number }[] = []
  const approve = (action: { targetName?: string; risk: number }) => {
    asked.push({ targetName: action.targetName, risk: action.risk })
    return true
  }
  const learned = await runGoal(await editor(t, 'save'), SAVE_GOAL, [{ operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }], store, { approve })
  t.is(learned.result.status, 'success', learned.result.error?.message)
  t.deepEqual(asked, [])
  const saveEntry = structuredClone([...store])

  // "Save and send" shares a word with "Save" and stands where it stood: a scored match, which the
  // model is asked about. It rates the click risky (0.9, where the recorded "Save" was 0.02).
  const sending: ScriptStep[] = [{ operation: 'CLICK', target: 'Save and send', risk: 0.9 }, { operation: 'DONE' }]
  const renamed = await editor(t, 'rename')
  const scored = await runGoal(renamed, SAVE_GOAL, sending, store, { approve })
  t.is(scored.result.status, 'success', scored.result.error?.message)
  t.deepEqual(asked, [{ targetName: 'Save and send', risk: 0.9 }])
  t.like(scored.result.trace[0], { operation: 'CLICK', targetName: 'Save and send', match: 'scored', risk: 0.9, approved: true })
  t.is(scored.result.trace[0]!.cached, undefined)
  t.is(scored.result.decisions, 2)
  t.deepEqual(await clicks(renamed), { 'Save and send': 1 })

  // Without approve, the fresh rating stops the run before the click.
  const unapproved = await editor(t, 'rename')
  const refused = await runGoal(unapproved, SAVE_GOAL, sending, new Map(saveEntry))
  t.is(refused.result.failure, 'risk_review', refused.result.error?.message)
  t.deepEqual(await clicks(unapproved), { 'Save and send': 0 })
})

const COUPON_STEPS: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: /Coupon/ }, { operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }]
const TWENTY_MB = 20 * 2 ** 20

test('a hand-edited entry with a 20 MB name is refused before it is parsed, and the model runs the goal', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-trust-'))
  const learned = await runGoal(await editor(t, 'save'), SAVE_GOAL, [{ operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }], dir)
  t.is(learned.result.status, 'success', learned.result.error?.message)
  const [file] = await readdir(dir)
  const entry = JSON.parse(await readFile(join(dir, file!), 'utf8')) as GoalEntry
  entry.steps[0]!.target!.name = `Save ${'x'.repeat(TWENTY_MB)}`
  await writeFile(join(dir, file!), JSON.stringify(entry))

  // The size is read first: the file is refused whole, without JSON.parse ever seeing the name.
  const error = await t.throwsAsync(async () => directoryStore(dir).get(file!.replace(/\.json$/, '')))
  t.regex(error!.message, new RegExp(`is 20,97\\d,\\d{3} bytes, over the ${MAX_ENTRY_BYTES.toLocaleString('en')} an entry may take`))

  const page = await editor(t, 'save')
  const again = await runGoal(page, SAVE_GOAL, [{ operation: 'CLICK', target: 'Save' }, { operation: 'DONE' }], dir)
  t.is(again.result.status, 'success', again.result.error?.message)
  t.is(again.cache, 'miss')
  t.is(again.result.decisions, 2)
  t.deepEqual(await clicks(page), { Save: 1 })
})

test('a store that hands back a parsed entry: a 20 MB name is refused by its length, at once', (t) => {
  const step = { operation: 'CLICK', target: { role: 'button', name: 'x'.repeat(TWENTY_MB), tag: 'button', frame: '', ordinal: 0, rect: { x: 0, y: 0, width: 1, height: 1 } }, page: { shape: 'https://a.test/', title: '' } }
  const started = performance.now()
  const parsed = parseGoalEntry({ version: 1, kind: 'goal', goal: SAVE_GOAL, page: 'https://a.test/', steps: [step], savedAt: '' }, SAVE_GOAL)
  t.true(performance.now() - started < 1_000)
  t.deepEqual(parsed, { invalid: 'steps.0.target.name: must be at most 200 characters (got 20,971,520 characters)' })
})

test('a stored TYPE_TEXT value past the text model’s 5,000 characters is refused: the text model writes the value', async (t) => {
  const store = new Map<string, unknown>()
  const learned = await runGoal(await editor(t, 'save'), COUPON_GOAL, COUPON_STEPS, store)
  t.is(learned.result.status, 'success', learned.result.error?.message)
  const [key, stored] = [...store][0]!
  const edited = structuredClone(stored) as GoalEntry
  edited.steps[0]!.text = 'x'.repeat(10 * 2 ** 20)
  store.set(key, edited)
  t.like(parseGoalEntry(edited, COUPON_GOAL), { invalid: 'steps.0.text: must be at most 5,000 characters (got 10,485,760 characters)' })

  const page = await editor(t, 'save')
  const again = await runGoal(page, COUPON_GOAL, COUPON_STEPS, store)
  t.is(again.result.status, 'success', again.result.error?.message)
  t.is(again.cache, 'miss')
  t.is(await page.$eval('#coupon', (field) => (field as HTMLInputElement).value), 'SAVE-7781')
})

test('typedValues: false stores neither the goal nor anything that reveals the typed coupon', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-trust-'))
  const cache = { store: dir, typedValues: false }
  const learned = await runGoal(await editor(t, 'save'), COUPON_GOAL, COUPON_STEPS, cache)
  t.is(learned.result.status, 'success', learned.result.error?.message)
  const [file] = await readdir(dir)
  const text = await readFile(join(dir, file!), 'utf8')
  t.false(/save-7781|7781/i.test(text), text)
  t.false(text.includes(COUPON_GOAL), text)
  t.false(text.includes('"fingerprint"'), text)
  const entry = JSON.parse(text) as GoalEntry
  t.is(entry.goal, undefined)
  t.deepEqual(entry.steps.map((step) => [step.operation, step.target?.name]), [['TYPE_TEXT', 'Coupon'], ['CLICK', 'Save']])

  // The entry still replays: its key is the goal's digest, and the text model writes the coupon again.
  const page = await editor(t, 'save')
  const again = await runGoal(page, COUPON_GOAL, [{ operation: 'DONE' }], cache)
  t.is(again.result.status, 'success', again.result.error?.message)
  t.is(again.cache, 'hit')
  t.is(again.text.doGenerateCalls.length, 1)
  t.is(await page.$eval('#coupon', (field) => (field as HTMLInputElement).value), 'SAVE-7781')
  t.deepEqual(await clicks(page), { Save: 1 })
})

test('a value typed into a field that turned into a password one as it went in is never stored, even with typedValues', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cache-trust-'))
  const page = await chrome.page(t)
  await page.setContent(`<label>Code <input id="code"></label><script>
    code.addEventListener('input', () => { code.type = 'password' })
  </script>`)
  const result = await agent(page).goal('Enter the code.', {
    decisions: scriptedModel([{ operation: 'TYPE_TEXT', target: /Code/ }, { operation: 'DONE' }]).model,
    text: textModel('483920'),
    evaluator: evaluatorModel(0.9),
    checklist: false,
    // Any secret lets the run go on past the password field it now shows; the code is typed as is.
    secrets: { unused: 'not-on-this-page' },
    cache: { store: dir, typedValues: true },
  })
  t.is(result.status, 'success', result.error?.message)
  const files = await readdir(dir)
  t.is(files.length, 1)
  t.false((await readFile(join(dir, files[0]!), 'utf8')).includes('483920'))
})
