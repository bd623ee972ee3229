import test from 'ava'
import { MockLanguageModelV4 } from 'ai/test'
import agent from '../src/index.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel } from './helpers/goal-scripted-model.ts'
import { textResult, tokenUsage } from './helpers/language-models.ts'

// What the model is given to work with, in real Chrome (issue 44): its own notes from earlier steps
// and what a scroll brought into view; a file input left out of the offer instead of stopping the
// run; a read-only date field offered as the click that opens its picker.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

interface TextState {
  elements: { id: string; name: string }[]
  recent_actions: { operation: string; outcome: string; detail?: string; note?: string }[]
}

/** A text model deciding by `replies` in order (the last repeats), keeping the state of each request. */
function notingDecider(replies: Record<string, unknown>[]): { model: MockLanguageModelV4; states: TextState[] } {
  const states: TextState[] = []
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      const user = options.prompt.find((message) => message.role === 'user')
      const part = user && Array.isArray(user.content) ? user.content.find((candidate) => candidate.type === 'text') : undefined
      if (!part || part.type !== 'text') throw new Error('noting decider: no prompt text')
      states.push((JSON.parse(part.text) as { state: TextState }).state)
      return textResult(JSON.stringify(replies[Math.min(states.length - 1, replies.length - 1)]), { usage: tokenUsage(200, 20) })
    },
  })
  return { model, states }
}

test('decisions: false: the note of reply 1 reaches request 3 beside its action, scrubbed of secrets, and a scroll names what came into view', async (t) => {
  const page = await chrome.open(t, servers.site.url('/sites/flights/'))
  const note = 'cheapest so far: FL 105 at €448; booking code K7Q-PRIVATE'
  const decider = notingDecider([
    { operation: 'SCROLL_DOWN', target: 'page', note },
    { operation: 'SCROLL_DOWN', target: 'page', note: null },
    { operation: 'DONE' },
  ])
  const result = await agent(page).goal('Find the cheapest flight in the list.', {
    decisions: false,
    text: decider.model,
    evaluator: evaluatorModel(0.9),
    checklist: false,
    secrets: { code: 'K7Q-PRIVATE' },
  })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  t.is(decider.states.length, 3)
  const scrubbed = 'cheapest so far: FL 105 at €448; booking code %code%'
  const [first, second] = decider.states[2]!.recent_actions
  t.like(first, { operation: 'SCROLL_DOWN', outcome: 'page_changed', note: scrubbed })
  t.false(second !== undefined && 'note' in second)
  // The scroll says which rows' controls came into view, by name, within its bound.
  const shownFirst = new Set(decider.states[0]!.elements.map((element) => element.name))
  const named = [...first!.detail!.matchAll(/"([^"]+)"/g)].map((match) => match[1]!)
  t.true(named.length > 0 && named.length <= 5, first!.detail)
  for (const name of named) {
    t.regex(name, /^Select FL \d+$/)
    t.false(shownFirst.has(name), `${name} was in view before the scroll`)
  }
  t.is(result.trace[0]!.note, scrubbed)
  t.false(JSON.stringify(result).includes('K7Q-PRIVATE'))
})

test('a page with a file input is not stopped: the input is left out of the offer and counted, and the goal is done', async (t) => {
  const page = await chrome.open(t, servers.site.url('/sites/user-manager/'))
  const scripted = scriptedModel([{ operation: 'TYPE_TEXT', target: 'Full name' }, { operation: 'CLICK', target: 'Add user' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Add the user Ada Lovelace.', { decisions: scripted.model, text: textModel('Ada Lovelace'), checklist: false })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  t.is(await page.$eval('#users', (list) => list.textContent), 'Grace HopperAda Lovelace')
  const first = scripted.seen[0]!
  t.is((first.page as { file_inputs_left_out?: number }).file_inputs_left_out, 1)
  t.false(first.elements.some((element) => element.name === 'CSV file'))
  t.true(first.elements.some((element) => element.name === 'Import'))
})

test('a read-only date field says readonly and what its click opens, and is offered a click, not TYPE_TEXT', async (t) => {
  const page = await chrome.open(t, servers.site.url('/sites/date-picker/'))
  const scripted = scriptedModel([{ operation: 'CLICK', target: 'Arrival date' }, { operation: 'CLICK', target: '14 June 2026' }, { operation: 'DONE' }])
  const result = await agent(page).goal('Arrive on 14 June.', { decisions: scripted.model, text: textModel('unused'), checklist: false })
  t.is(result.error, undefined)
  t.is(result.status, 'success')
  t.is(await page.$eval('#arrival', (field) => (field as HTMLInputElement).value), '2026-06-14')
  const first = scripted.seen[0]!
  const field = first.elements.find((element) => element.name === 'Arrival date')!
  t.like(field.state, { readonly: true, haspopup: 'dialog', expanded: false })
  t.true(first.questions.click_target!.includes(field.id))
  t.false((first.questions.type_text_target ?? []).includes(field.id))
})
