import test from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import type { ChecklistItem, GoalResult } from '../types/index.d.ts'
import type { ChecklistPrompt } from '../src/checklist/checklist-schema.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { askedForChecklist, checklistWriter, evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// `verified` is earned by the run (issue 25, items 1–3), in real Chrome: what the page showed before
// the run acted proves nothing, text no person can see is not shown, an item whose control the page
// never names does not turn a finished task into a failure, a field the page leaves unnamed can be
// named by its place (issue 43), and a text model that cannot write the checklist does not fail the run.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

async function open(t: Parameters<typeof chrome.page>[0], path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`sites/checklist-trust/${path}`))
  return page
}

function run(page: Page, steps: ScriptStep[], options: Record<string, unknown>) {
  return agent(page).goal('Subscribe ada@example.com to the newsletter.', {
    decisions: scriptedModel(steps).model,
    evaluator: evaluatorModel(0.9),
    ...options,
  })
}

const item = (description: string, check: ChecklistItem['check']): ChecklistItem => ({ description, check })

function statuses(result: GoalResult): string[] {
  return result.checklist.items.map((entry) => `${entry.description}: ${entry.status}${entry.unproven ? ` (${entry.unproven})` : ''}`)
}

/** A text model that cannot be reached: every request fails as a refused connection does. */
function unreachableModel(): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doGenerate: async () => {
      throw new Error('Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9')
    },
  })
}

test('a goal the page met before any action ends success, not verified, and the note says so', async (t) => {
  // The page fills in the email and ticks the box itself, quotes "Thank you for subscribing", and the run starts where the URL item points.
  const page = await open(t, 'already.html?step=1')
  const checklist = [
    item('Email holds the address', { kind: 'field_value', field: 'Email', value: 'ada@example.com' }),
    item('News are asked for', { kind: 'checked', control: 'Send me news', checked: true }),
    item('The page thanks the subscriber', { kind: 'text_visible', text: 'Thank you for subscribing' }),
    item('On the newsletter page', { kind: 'url_matches', contains: 'checklist-trust/already' }),
  ]
  const outcome = await run(page, [{ operation: 'DONE' }], { checklist, text: textModel('x') })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.is(outcome.steps, 0)
  t.false(outcome.verified)
  t.deepEqual(statuses(outcome), [
    'Email holds the address: judgment (met_at_start)',
    'News are asked for: judgment (met_at_start)',
    'The page thanks the subscriber: judgment (met_at_start)',
    'On the newsletter page: judgment (met_at_start)',
  ])
  t.regex(outcome.checklist.items[0]!.evidence!, /^Already so at the start: Email holds "ada@example\.com"/)
  t.regex(outcome.checklist.note!, /before the run acted.*not verified/)
})

test('a value the page had is the run\'s once the agent types it, and a ticked box once it changed', async (t) => {
  const page = await open(t, 'already.html')
  const checklist = [
    item('Email holds the address', { kind: 'field_value', field: 'Email', value: 'ada@example.com' }),
    item('News are asked for', { kind: 'checked', control: 'Send me news', checked: true }),
  ]
  const steps: ScriptStep[] = [
    { operation: 'TYPE_TEXT', target: 'Email' },
    { operation: 'CLICK', target: 'Send me news' },
    { operation: 'CLICK', target: 'Send me news' },
    { operation: 'DONE' },
  ]
  const outcome = await run(page, steps, { checklist, text: textModel('ada@example.com') })
  t.is(outcome.error, undefined)
  t.true(outcome.verified)
  t.deepEqual(statuses(outcome), ['Email holds the address: done', 'News are asked for: done'])
  t.is(outcome.checklist.note, undefined)
})

test('url_matches ignores the query unless it names it, and counts only once the URL changed', async (t) => {
  const page = await open(t, 'already.html')
  const checklist = [item('The order is complete', { kind: 'url_matches', contains: '/order-complete' })]
  const steps: ScriptStep[] = [{ operation: 'CLICK', target: 'Log in first' }, { operation: 'DONE' }, { operation: 'CLICK', target: 'Finish' }, { operation: 'DONE' }]
  const outcome = await run(page, steps, { checklist, text: textModel('x') })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.deepEqual(outcome.trace[1]!.openItems, ['The order is complete'], '/already.html?next=/order-complete is not the path')
  t.true(outcome.verified)
  t.regex(outcome.checklist.items[0]!.evidence!, /order-complete\.html/)
})

test('text no person can see (transparent, 1 px, opacity 0.02, clipped screen-reader text) is not shown', async (t) => {
  const page = await open(t, 'hidden.html')
  const shown = (text: string) => item(`The page shows ${text}`, { kind: 'text_visible', text })
  const checklist = [shown('Order placed'), shown('Payment received'), shown('Receipt sent'), shown('Order complete'), shown('Thank you for your order')]
  const outcome = await run(page, [{ operation: 'CLICK', target: 'Place order' }, { operation: 'DONE' }, { operation: 'DONE' }], { checklist, text: textModel('x') })
  t.is(outcome.failure, 'unverified_done')
  t.false(outcome.verified)
  t.deepEqual(statuses(outcome), [
    'The page shows Order placed: done',
    'The page shows Payment received: open',
    'The page shows Receipt sent: open',
    'The page shows Order complete: open',
    'The page shows Thank you for your order: open',
  ])
})

test('an item naming a field by a name the page never shows is unmatched: DONE is not refused, and the run is not verified', async (t) => {
  const page = await open(t, 'unnamed.html')
  const checklist = [
    item('The coupon code is entered', { kind: 'field_value', field: 'Coupon code', value: 'SAVE10' }),
    item('The coupon is applied', { kind: 'activated', control: 'Apply' }),
    item('The page confirms it', { kind: 'text_visible', text: 'Coupon applied' }),
  ]
  const steps: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: 'text field 1' }, { operation: 'CLICK', target: 'Apply' }, { operation: 'DONE' }, { operation: 'DONE' }]
  const outcome = await run(page, steps, { checklist, text: textModel('SAVE10') })
  t.is(outcome.error, undefined)
  t.is(outcome.status, 'success')
  t.is(outcome.trace.filter((entry) => entry.operation === 'DONE').length, 1, 'the first DONE ends the run')
  t.false(outcome.verified)
  t.deepEqual(statuses(outcome), ['The coupon code is entered: judgment (unmatched)', 'The coupon is applied: done', 'The page confirms it: done'])
  t.regex(outcome.checklist.items[0]!.evidence!, /No observation offered a control named "Coupon code"/)
  t.regex(outcome.checklist.note!, /No observation offered the control of "The coupon code is entered"/)
})

test('a field the page leaves unnamed is named by its place: a checklist item naming it so is verified, and the writer read the page text', async (t) => {
  const page = await open(t, 'unnamed-pair.html')
  const checklist = { items: [item('The card number is in the second box', { kind: 'field_value', field: 'text field 2', value: 'K7Q-22' })] }
  const text = checklistWriter(checklist, 'K7Q-22')
  const outcome = await run(page, [{ operation: 'TYPE_TEXT', target: 'text field 2' }, { operation: 'DONE' }], { text })
  t.is(outcome.error, undefined)
  t.true(outcome.verified)
  t.deepEqual(statuses(outcome), ['The card number is in the second box: done'])
  t.is(outcome.trace[0]!.targetName, 'text field 2')
  t.is(await page.$eval('#second', (field) => (field as HTMLInputElement).value), 'K7Q-22')
  // The checklist request: the fields by their place, marked so, and the text the value is copied from.
  const user = text.doGenerateCalls.find(askedForChecklist)!.prompt.find((message) => message.role === 'user')!
  const part = Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
  const request = JSON.parse(part?.type === 'text' ? part.text : '{}') as ChecklistPrompt
  t.regex(request.page.text, /Your card number is K7Q-22\./)
  t.deepEqual(
    request.controls.map((control) => [control.name, control.name_from]),
    [
      ['text field 1', 'position'],
      ['text field 2', 'position'],
    ],
  )
})

test('a text model that cannot be reached costs the checklist, not the run, for a goal that types nothing', async (t) => {
  const page = await open(t, 'hidden.html')
  const text = unreachableModel()
  const outcome = await run(page, [{ operation: 'CLICK', target: 'Place order' }, { operation: 'DONE' }], { text })
  t.is(outcome.error, undefined)
  t.is(outcome.failure, undefined)
  t.is(outcome.status, 'success')
  t.false(outcome.verified)
  t.is(outcome.checklist.source, 'none')
  t.deepEqual(outcome.checklist.items, [])
  t.regex(outcome.checklist.note!, /text model failed to write the checklist.*ECONNREFUSED 127\.0\.0\.1:9/)
  t.true(text.doGenerateCalls.length >= 1 && text.doGenerateCalls.every(askedForChecklist))

  // A goal that types still needs the text model for the value.
  const typing = await open(t, 'unnamed.html')
  const typed = await run(typing, [{ operation: 'TYPE_TEXT', target: 'text field 1' }, { operation: 'DONE' }], { text: unreachableModel() })
  t.is(typed.failure, 'model_failed')
  t.regex(typed.checklist.note!, /ECONNREFUSED/)
})
