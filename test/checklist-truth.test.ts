import test from 'ava'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import type { ChecklistItem, GoalResult } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// The outcome tells the truth (issue 43), in real Chrome: a login typed with secrets is verified
// without a secret in the result, what the page does by itself proves nothing, and items whose
// controls left with the page do not turn a finished run into a failure.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`sites/checklist-truth/${path}`))
  return page
}

const item = (description: string, check: ChecklistItem['check']): ChecklistItem => ({ description, check })

function statuses(result: GoalResult): string[] {
  return result.checklist.items.map((entry) => `${entry.description}: ${entry.status}${entry.unproven ? ` (${entry.unproven})` : ''}`)
}

test('a login typed with secrets is verified: the masked field holds what was typed, compared inside the process', async (t) => {
  const page = await open(t, 'login.html')
  const secrets = { username: 'ada@example.org', password: 'pa$$ w0rd!' }
  const checklist = [
    item('The username is entered', { kind: 'field_value', field: 'Username', value: '%username%' }),
    item('The password is entered', { kind: 'field_value', field: 'Password', value: '%password%' }),
    item('Signed in', { kind: 'activated', control: 'Sign in' }),
  ]
  const steps: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: 'Username' }, { operation: 'TYPE_TEXT', target: 'Password' }, { operation: 'CLICK', target: 'Sign in' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Sign in as %username% with the password %password%.', {
    decisions: scriptedModel(steps).model,
    text: textModel('%username%', '%password%'),
    evaluator: evaluatorModel(0.9),
    secrets,
    checklist,
  })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.deepEqual(statuses(outcome), ['The username is entered: done', 'The password is entered: done', 'Signed in: done'])
  const shown = JSON.stringify({ checklist: outcome.checklist, trace: outcome.trace })
  t.false(shown.includes(secrets.password) || shown.includes(secrets.username))
})

test('the same login with a wrong password typed is not verified', async (t) => {
  const page = await open(t, 'login.html')
  const checklist = [item('The password is entered', { kind: 'field_value', field: 'Password', value: '%password%' }), item('Signed in', { kind: 'activated', control: 'Sign in' })]
  const steps: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: 'Password' }, { operation: 'CLICK', target: 'Sign in' }, { operation: 'DONE' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Sign in with the password %password%.', {
    decisions: scriptedModel(steps).model,
    text: textModel('guess'),
    secrets: { password: 'pa$$ w0rd!' },
    checklist,
  })
  t.is(outcome.failure, 'unverified_done')
  t.false(outcome.verified)
})

test('a confirmation the page shows on a timer while the agent only waits is unprompted: success, not verified', async (t) => {
  const page = await open(t, 'timer.html')
  const checklist = [item('The payment is confirmed', { kind: 'text_visible', text: 'Payment confirmed' })]
  const steps: ScriptStep[] = [
    { operation: 'WAIT', before: () => page.waitForFunction(() => document.body.innerText.includes('Payment confirmed'), { timeout: 30_000 }) },
    { operation: 'WAIT' },
    { operation: 'DONE' },
  ]
  const outcome = await agent(page).goal('Pay for the order.', { decisions: scriptedModel(steps).model, text: textModel('x'), checklist })
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.regex(statuses(outcome)[0]!, /judgment \((unprompted|met_at_start)\)$/)
})

test('a dead button beside a ticking clock is not activated: the clock is not the click\'s change', async (t) => {
  const page = await open(t, 'clock.html')
  const checklist = [item('Paid', { kind: 'activated', control: 'Pay now' })]
  const steps: ScriptStep[] = [{ operation: 'CLICK', target: 'Pay now' }, { operation: 'DONE' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Pay for the order.', { decisions: scriptedModel(steps).model, text: textModel('x'), checklist, approve: () => true })
  t.is(outcome.failure, 'unverified_done')
  t.false(outcome.verified)
  t.regex(outcome.checklist.items[0]!.evidence!, /CLICK "Pay now" landed; the page (changed only as it does by itself|did not change)/)
})

test('items whose controls left with the page after the last input end a second DONE with success, not verified, as gone', async (t) => {
  const page = await open(t, 'ends.html')
  const checklist = [item('The notes are read', { kind: 'checked', control: 'I have read the notes', checked: true }), item('Finished', { kind: 'activated', control: 'Finish' })]
  const steps: ScriptStep[] = [{ operation: 'CLICK', target: 'Finish' }, { operation: 'DONE' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Finish the task.', { decisions: scriptedModel(steps).model, text: textModel('x'), checklist })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.is(outcome.trace.filter((entry) => entry.operation === 'DONE').length, 2, 'the first DONE is refused')
  t.deepEqual(statuses(outcome), ['The notes are read: judgment (gone)', 'Finished: judgment (gone)'])
  t.regex(outcome.checklist.note!, /took away the control/)
})

test('"open the first result": the judgment item the model said the click serves is verified as activated on that result once the page changed', async (t) => {
  const page = await open(t, 'results.html')
  const checklist = [item('The first result is open', { kind: 'judgment' })]
  const steps: ScriptStep[] = [{ operation: 'CLICK', target: 'Barn owl', serves: 'The first result is open' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Open the first result.', { decisions: scriptedModel(steps).model, text: textModel('x'), checklist })
  t.is(outcome.status, 'success')
  t.true(outcome.verified)
  t.like(outcome.checklist.items[0], { status: 'done', check: { kind: 'activated', control: 'Barn owl' } })
  t.is(outcome.trace[0]!.serves, 'The first result is open')
})

test('saying an action serves an item proves nothing: a click that changed nothing leaves it a judgment, not verified', async (t) => {
  const page = await open(t, 'results.html')
  const checklist = [item('The search is saved', { kind: 'judgment' })]
  const steps: ScriptStep[] = [{ operation: 'CLICK', target: 'Save search', serves: 'The search is saved' }, { operation: 'DONE' }]
  const outcome = await agent(page).goal('Save the search.', { decisions: scriptedModel(steps).model, text: textModel('x'), checklist })
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.like(outcome.checklist.items[0], { status: 'judgment', check: { kind: 'judgment' } })
})

test('a text_visible item guessing the wrong wording, disputed after a refused DONE: success, not verified, the item disputed with its reason', async (t) => {
  const page = await open(t, 'wiki-delete.html')
  const checklist = [item('The page is deleted', { kind: 'activated', control: 'Delete page' }), item('The wiki says the page does not exist', { kind: 'text_visible', text: 'does not exist yet' })]
  const steps: ScriptStep[] = [
    { operation: 'CLICK', target: 'Delete page' },
    { operation: 'DONE' },
    { operation: 'DONE', dispute: { item: 'The wiki says the page does not exist', reason: 'other_wording' } },
  ]
  const scripted = scriptedModel(steps)
  const outcome = await agent(page).goal('Delete the page "Old notes".', { decisions: scripted.model, text: textModel('x'), checklist, approve: () => true })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.deepEqual(statuses(outcome), ['The page is deleted: done', 'The wiki says the page does not exist: judgment (disputed)'])
  t.regex(outcome.checklist.items[1]!.evidence!, /^Disputed by the decision model: the page says it in other words/)
  t.regex(outcome.checklist.note!, /disputed "The wiki says the page does not exist"/)
  t.deepEqual(outcome.trace.at(-1)!.disputed, { item: 'The wiki says the page does not exist', reason: 'other_wording' })
  t.deepEqual(scripted.seen[2]!.questions.dispute, ['none', 'c2:other_wording', 'c2:no_such_control', 'c2:not_needed'])
})
