import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent, { BlockedError } from '../src/index.ts'
import type { ChecklistItem, GoalResult } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { askedForChecklist, checklistWriter, evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// The checklist in real Chrome: written by the text model (or given by the caller), checked on the page
// after every observation, shown to the model, and the judge of DONE.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path = 'sites/signup/index.html'): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  return page
}

const EMAIL: ChecklistItem = { description: 'Email holds ada@example.com', check: { kind: 'field_value', field: 'Email', value: 'ada@example.com' } }
const GOLD: ChecklistItem = { description: 'The Gold plan is chosen', check: { kind: 'selected', control: 'Plan', option: 'Gold' } }
const NEWS: ChecklistItem = { description: 'News are asked for', check: { kind: 'checked', control: 'Send me news', checked: true } }
const SENT: ChecklistItem = { description: 'The form is sent', check: { kind: 'activated', control: 'Sign up' } }
const PLAN_SHOWN: ChecklistItem = { description: 'The welcome page shows the Gold plan', check: { kind: 'text_visible', text: 'Plan: Gold' } }
const WELCOMED: ChecklistItem = { description: 'The welcome page greets Ada', check: { kind: 'text_visible', text: 'Welcome, Ada' } }
const ON_WELCOME: ChecklistItem = { description: 'On the welcome page', check: { kind: 'url_matches', contains: '/signup/welcome.html' } }

function goal(page: Page, steps: ScriptStep[], options: Record<string, unknown>) {
  const scripted = scriptedModel(steps)
  const result = agent(page).goal('Sign up as Ada, ada@example.com, on the Gold plan.', {
    decisions: scripted.model,
    evaluator: evaluatorModel(0.9),
    ...options,
  })
  return { scripted, result }
}

function statuses(result: GoalResult): string[] {
  return result.checklist.items.map((item) => `${item.description}: ${item.status}`)
}

test('a DONE before the form is sent is refused, the model is told what is open, and the run then succeeds verified', async (t) => {
  const page = await open(t)
  const writer = checklistWriter({ items: [EMAIL, GOLD, SENT, PLAN_SHOWN] }, 'ada@example.com')
  const { scripted, result } = goal(
    page,
    [
      { operation: 'TYPE_TEXT', target: 'Email' },
      { operation: 'SELECT', target: 'Plan', option: 'Gold' },
      { operation: 'DONE' },
      { operation: 'CLICK', target: 'Sign up' },
      { operation: 'DONE' },
    ],
    { text: writer },
  )
  const outcome = await result
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.is(outcome.failure, undefined)
  t.is(outcome.checklist.source, 'model')
  t.deepEqual(statuses(outcome), [
    'Email holds ada@example.com: done',
    'The Gold plan is chosen: done',
    'The form is sent: done',
    'The welcome page shows the Gold plan: done',
  ])
  t.regex(outcome.checklist.items[2]!.evidence!, /Sign up/)
  // The refused DONE: recorded with what was open, told to the model, and not counted as an action.
  const refused = outcome.trace[2]!
  t.like(refused, { operation: 'DONE', openItems: ['The form is sent', 'The welcome page shows the Gold plan'] })
  t.like(scripted.seen[3]!.recent.at(-1), { operation: 'DONE', outcome: 'not_verified' })
  t.is(outcome.steps, 3)
  // Ordering context: open items first, the next one marked.
  t.deepEqual(scripted.seen[0]!.checklist!.map((line) => [line.item, line.status, line.next ?? false]), [
    ['Email holds ada@example.com', 'open', true],
    ['The Gold plan is chosen', 'open', false],
    ['The form is sent', 'open', false],
    ['The welcome page shows the Gold plan', 'open', false],
  ])
  t.deepEqual(scripted.seen[3]!.checklist!.map((line) => line.status), ['open', 'open', 'done', 'done'])
  // One checklist request, one text, counted like every model call.
  t.is(writer.doGenerateCalls.filter(askedForChecklist).length, 1)
  t.is((await outcome.profiling()).cost.calls, 5 + 2 + 1)
})

test('a model that insists on DONE with a field still empty ends unverified_done, naming the item', async (t) => {
  const page = await open(t)
  const { result } = goal(page, [{ operation: 'DONE' }, { operation: 'DONE' }], { text: checklistWriter({ items: [EMAIL, SENT] }) })
  const outcome = await result
  t.is(outcome.status, 'error')
  t.false(outcome.verified)
  t.is(outcome.failure, 'unverified_done')
  t.true(outcome.error instanceof BlockedError)
  t.is((outcome.error as BlockedError).reason, 'unverified_done')
  t.regex(outcome.error!.message, /1\. Email holds ada@example\.com; 2\. The form is sent/)
  t.deepEqual(statuses(outcome), ['Email holds ada@example.com: open', 'The form is sent: open'])
})

test('a checkbox item is done only once the box is ticked', async (t) => {
  const page = await open(t)
  const { scripted, result } = goal(page, [{ operation: 'CLICK', target: 'Send me news' }, { operation: 'DONE' }], { checklist: [NEWS], text: textModel('x') })
  const outcome = await result
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.is(scripted.seen[0]!.checklist![0]!.status, 'open')
  t.like(outcome.checklist.items[0], { status: 'done' })
  t.regex(outcome.checklist.items[0]!.evidence!, /checked/)
})

test('a select item follows the selected option', async (t) => {
  const page = await open(t)
  const { result } = goal(page, [{ operation: 'SELECT', target: 'Plan', option: 'Gold' }, { operation: 'DONE' }], { checklist: [GOLD], text: textModel('x') })
  const outcome = await result
  t.true(outcome.verified)
  t.regex(outcome.checklist.items[0]!.evidence!, /Gold/)
})

test('a navigation task is verified by the URL and the text of the page it ends on', async (t) => {
  const page = await open(t)
  const { result } = goal(
    page,
    [{ operation: 'TYPE_TEXT', target: 'Name' }, { operation: 'CLICK', target: 'Sign up' }, { operation: 'DONE' }],
    { checklist: [ON_WELCOME, WELCOMED], text: textModel('Ada') },
  )
  const outcome = await result
  t.is(outcome.error, undefined)
  t.true(outcome.verified)
  t.regex(outcome.checklist.items[0]!.evidence!, /welcome\.html/)
  t.regex(outcome.checklist.items[1]!.evidence!, /Welcome, Ada/)
})

test('an item the page undoes (the email cleared by ticking a box) is open again, and DONE waits for it', async (t) => {
  const page = await open(t, 'sites/signup/index.html?trap=1')
  const { scripted, result } = goal(
    page,
    [
      { operation: 'TYPE_TEXT', target: 'Email' },
      { operation: 'CLICK', target: 'Send me news' },
      { operation: 'DONE' },
      { operation: 'TYPE_TEXT', target: 'Email' },
      { operation: 'DONE' },
    ],
    { checklist: [EMAIL, NEWS], text: textModel('ada@example.com') },
  )
  const outcome = await result
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.deepEqual(scripted.seen[1]!.checklist!.map((line) => [line.item, line.status]), [
    ['News are asked for', 'open'],
    ['Email holds ada@example.com', 'done'],
  ])
  t.deepEqual(outcome.trace[2]!.openItems, ['Email holds ada@example.com'])
})

test('a checklist reply that does not validate: the run goes on without one, and says so', async (t) => {
  const page = await open(t)
  const invalid = { items: [{ description: 'Click the button', check: { kind: 'css', selector: '#signup button' } }] }
  const { scripted, result } = goal(page, [{ operation: 'DONE' }], { text: checklistWriter(invalid) })
  const outcome = await result
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.is(outcome.checklist.source, 'none')
  t.deepEqual(outcome.checklist.items, [])
  t.regex(outcome.checklist.note!, /did not validate/)
  t.is(scripted.seen[0]!.checklist, undefined)
})

test('a checklist given by the caller costs no request, and checklist: false turns it off', async (t) => {
  const page = await open(t)
  const text = textModel('ada@example.com')
  const given = await goal(page, [{ operation: 'TYPE_TEXT', target: 'Email' }, { operation: 'DONE' }], { checklist: [EMAIL], text }).result
  t.true(given.verified)
  t.is(given.checklist.source, 'caller')
  t.is(text.doGenerateCalls.length, 1)
  t.false(askedForChecklist(text.doGenerateCalls[0]!))

  const off = await goal(page, [{ operation: 'DONE' }], { checklist: false, text }).result
  t.is(off.status, 'success')
  t.false(off.verified)
  t.deepEqual(off.checklist, { source: 'none', items: [] })
  t.is(text.doGenerateCalls.length, 1)
})

test('a checklist option that is not a list of items is refused before anything runs, naming what is wrong', async (t) => {
  const page = await open(t)
  await t.throwsAsync(agent(page).goal('x', { checklist: [{ description: 'x', check: { kind: 'css' } }] as never }), {
    name: 'UsageError',
    message: /Invalid option "checklist" in goal options: .*kind/,
  })
  await t.throwsAsync(agent(page).goal('x', { checklist: 'yes' as never }), { name: 'UsageError', message: /checklist/ })
})
