import test from 'ava'
import { NAMED_KEYS } from '../src/operations.ts'
import { InvalidResponseDataError, NoObjectGeneratedError } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import type { Experimental_DecisionModelV4Answer, Experimental_DecisionModelV4Result } from '@ai-sdk/provider'
import type { Observation } from '../src/collector/observation.ts'
import { mergeSettings, type Settings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import { decideStep } from '../src/decision/decide-step.ts'
import { sumTolerance } from '../src/decision/check-answers.ts'
import type { ChecklistLine, RecentAction } from '../src/decision/decision.ts'
import { decisionModel, distribution } from './helpers/decision-models.ts'
import { promptOf, textResult, tokenUsage } from './helpers/language-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// ---------------------------------------------------------------- fixtures

function observation(overrides: Partial<Observation> = {}): Observation {
  return pageObservation({
    url: 'https://shop.test/',
    title: 'Shop',
    text: 'Welcome to the shop',
    elements: [
      observedElement('e1', { role: 'link', name: 'Home', tag: 'a' }),
      observedElement('e2', { role: 'textbox', name: 'Search', tag: 'input', type: 'search', value: '', operations: ['type'], form: { name: 'search', fields: {} } }),
      observedElement('e3', { name: 'Go', operations: ['click', 'submit'], form: { name: 'search', fields: { q: '' } } }),
      observedElement('e4', {
        role: 'combobox',
        name: 'Sort',
        tag: 'select',
        operations: ['select'],
        options: [
          { id: 'o1', label: 'Relevance', value: 'rel', selected: true },
          { id: 'o2', label: 'Price', value: 'price', selected: false, group: 'Order' },
        ],
      }),
    ],
    scroll: [{ id: 'page', name: 'page', up: false, down: true }],
    signature: 'sig',
    ...overrides,
  })
}

const OFFERED = ['CLICK', 'TYPE_TEXT', 'SUBMIT', 'SELECT', 'PRESS', 'SCROLL_DOWN', 'WAIT', 'DONE', 'BLOCKED']

/** A distribution over `ids` where `chosen` gets `p` and the others share the rest. */
function dist(ids: string[], chosen: string, p = 0.79): Record<string, number> {
  return distribution(ids, chosen, p)
}

function choice(ids: string[], chosen: string, p?: number): Experimental_DecisionModelV4Answer {
  return { type: 'choice', choice: chosen, probabilities: dist(ids, chosen, p) }
}

/** Valid answers for every head of the fixture's request, with `overrides` replacing some. */
function answers(overrides: Record<string, unknown> = {}): Record<string, Experimental_DecisionModelV4Answer> {
  return {
    operation: choice(OFFERED, 'CLICK'),
    click_target: choice(['e1', 'e3'], 'e3'),
    type_text_target: choice(['e2'], 'e2', 1),
    submit_target: choice(['e3'], 'e3', 1),
    select_target: choice(['e4:o2'], 'e4:o2', 1),
    press_target: choice(['page'], 'page', 1),
    press_key: choice([...NAMED_KEYS], 'Enter'),
    scroll_down_target: choice(['page'], 'page', 1),
    risk: { type: 'boolean', probability: 0.05 },
    ...(overrides as Record<string, Experimental_DecisionModelV4Answer>),
  }
}

/** A decision model whose every answer is `reply`, with 50 input and 5 output tokens unless it says otherwise. */
function decider(reply: Partial<Experimental_DecisionModelV4Result>) {
  return decisionModel({ answers: {}, warnings: [], usage: { inputTokens: 50, outputTokens: 5 }, ...reply })
}

function step(settings: Partial<Settings>, extra: { exclude?: ReadonlySet<string>; recent?: RecentAction[]; observation?: Observation; checklist?: ChecklistLine[] } = {}) {
  const ledger = createLedger()
  return {
    ledger,
    run: () =>
      decideStep({
        goal: 'Sort the results by price',
        observation: extra.observation ?? observation(),
        recent: extra.recent ?? [],
        settings: mergeSettings(settings),
        ledger,
        exclude: extra.exclude,
        checklist: extra.checklist,
      }),
  }
}

async function decideWith(reply: Partial<Experimental_DecisionModelV4Result>) {
  const { model, calls } = decider(reply)
  const { run, ledger } = step({ decisions: model })
  return { decision: await run(), calls, ledger }
}

async function rejectWith(t: import('ava').ExecutionContext, reply: Partial<Experimental_DecisionModelV4Result>, message: RegExp) {
  const { model, calls } = decider(reply)
  const error = await t.throwsAsync(step({ decisions: model }).run())
  t.regex(error!.message, message)
  t.is(calls.length, 1, 'an invalid answer is never retried')
  return error!
}

// ---------------------------------------------------------------- the request

test('the state carries goal, page, elements and recent actions told by name', (t) => {
  const recent: RecentAction[] = [
    { operation: 'CLICK', target: 'e9', targetName: 'Menu', outcome: 'no_change' },
    { operation: 'TYPE_TEXT', target: 'e2', targetName: 'Search', text: 'shoes', outcome: 'page_changed' },
    { operation: 'CLICK', target: 'e7', targetName: 'Buy', outcome: 'stale_discarded', detail: 'value changed' },
  ]
  const { state } = buildDecisionRequest({ goal: 'find shoes', observation: observation({ omitted: 3 }), recent })
  t.is(state.goal, 'find shoes')
  t.deepEqual(state.page, {
    url: 'https://shop.test/',
    title: 'Shop',
    text: 'Welcome to the shop',
    omitted_controls: 3,
    scroll: [{ id: 'page', name: 'page', up: false, down: true }],
  })
  t.deepEqual((state.elements as unknown[])[1], { id: 'e2', role: 'textbox', name: 'Search', type: 'search', value: '', form: 'search' })
  t.deepEqual((state.elements as unknown[])[3], {
    id: 'e4',
    role: 'combobox',
    name: 'Sort',
    options: [
      { id: 'o1', label: 'Relevance', selected: true },
      { id: 'o2', label: 'Price', group: 'Order' },
    ],
  })
  t.deepEqual(state.recent_actions, [
    { operation: 'CLICK', target_name: 'Menu', outcome: 'no_change' },
    { operation: 'TYPE_TEXT', target_name: 'Search', text: 'shoes', outcome: 'page_changed' },
    { operation: 'CLICK', target_name: 'Buy', outcome: 'stale_discarded', detail: 'value changed' },
  ])
})

test('questions offer only the operations possible now, with one target head each', (t) => {
  const { questions, operations } = buildDecisionRequest({ goal: 'g', observation: observation(), recent: [] })
  t.deepEqual(operations, OFFERED)
  t.deepEqual(Object.keys(questions), [
    'operation', 'click_target', 'type_text_target', 'submit_target', 'select_target', 'press_target', 'press_key', 'scroll_down_target', 'risk',
  ])
  const operation = questions.operation as { criteria: Record<string, unknown> }
  t.deepEqual(Object.keys(operation.criteria), OFFERED)
  t.is(operation.criteria.CLICK, null, 'options carry descriptions only where needed')
  t.is(typeof operation.criteria.DONE, 'string')
  // Typing replaces a value; emptying a field is a key press, since a typed value cannot be empty.
  t.regex(String(operation.criteria.TYPE_TEXT), /in place of what it holds.*to empty a field, PRESS Control\+A, then Backspace/)
  const click = questions.click_target as { instructions: string; criteria: Record<string, unknown> }
  t.deepEqual(Object.keys(click.criteria), ['e1', 'e3'])
  t.regex(click.instructions, /^If the operation is CLICK:/)
  t.deepEqual(Object.keys((questions.type_text_target as { criteria: object }).criteria), ['e2'])
  t.deepEqual(Object.keys((questions.submit_target as { criteria: object }).criteria), ['e3'])
  t.deepEqual(Object.keys((questions.select_target as { criteria: object }).criteria), ['e4:o2'], 'the selected option is not offered')
  t.regex((questions.select_target as { instructions: string }).instructions, /^If the operation is SELECT:/)
  t.deepEqual(Object.keys((questions.scroll_down_target as { criteria: object }).criteria), ['page'])
  // A helper playing the model asked where a key sent to `page` goes before anything holds focus.
  t.regex((questions.press_target as { instructions: string }).instructions, /or to the page itself when no element holds it/)
  t.is(questions.risk?.type, 'boolean')
  t.regex((questions.risk as { instructions: string }).instructions, /payment or a purchase.*deleting data, or overwriting it.*sending something to other people.*changing who may access what/)
  // The action is rated for what it is: a goal that asks for a purchase does not make it safe to skip approval.
  t.regex((questions.risk as { instructions: string }).instructions, /whether or not the goal asks for it/)
})

test('scrolling is offered only in a direction something can scroll, containers included', (t) => {
  const none = buildDecisionRequest({ goal: 'g', observation: observation({ scroll: [] }), recent: [] })
  t.false(none.operations.includes('SCROLL_DOWN'))
  t.false(none.operations.includes('SCROLL_UP'))
  const both = buildDecisionRequest({
    goal: 'g',
    observation: observation({
      scroll: [
        { id: 'page', name: 'page', up: true, down: false },
        { id: 's1', name: 'Results', up: true, down: true },
      ],
    }),
    recent: [],
  })
  t.deepEqual(Object.keys((both.questions.scroll_up_target as { criteria: object }).criteria), ['page', 's1'])
  t.deepEqual(Object.keys((both.questions.scroll_down_target as { criteria: object }).criteria), ['s1'])
})

test('excluded actions are not offered, and an operation left with no target disappears', (t) => {
  const { operations, questions, state } = buildDecisionRequest({
    goal: 'g',
    observation: observation(),
    recent: [],
    exclude: new Set(['CLICK:e1', 'TYPE_TEXT:e2', 'SUBMIT:e3', 'SCROLL_DOWN:page']),
  })
  t.false(operations.includes('TYPE_TEXT'))
  t.false(operations.includes('SUBMIT'))
  t.false(operations.includes('SCROLL_DOWN'))
  t.deepEqual(Object.keys((questions.click_target as { criteria: object }).criteria), ['e3'])
  t.false('type_text_target' in questions)
  t.false('scroll_down_target' in questions)
  // An exclusion is of one operation: the other operations on the same control stay offered, and
  // the control stays in the state, where the history says what came of it.
  t.true(operations.includes('CLICK'))
  t.deepEqual((state.elements as { id: string }[]).map((element) => element.id), ['e1', 'e2', 'e3', 'e4'])
})

test('a page with nothing to act on offers a key to the page, WAIT, DONE and BLOCKED only', (t) => {
  const { operations, questions } = buildDecisionRequest({ goal: 'g', observation: observation({ elements: [], scroll: [] }), recent: [] })
  t.deepEqual(operations, ['PRESS', 'WAIT', 'DONE', 'BLOCKED'])
  t.deepEqual(Object.keys(questions), ['operation', 'press_target', 'press_key', 'risk'])
  t.deepEqual(Object.keys((questions.press_target as { criteria: object }).criteria), ['page'])
})

test('only the latest ten actions are told', (t) => {
  const recent: RecentAction[] = Array.from({ length: 14 }, (_, index) => ({ operation: 'WAIT', outcome: 'no_change', detail: String(index) }))
  const { state } = buildDecisionRequest({ goal: 'g', observation: observation(), recent })
  const told = state.recent_actions as { detail: string }[]
  t.is(told.length, 10)
  t.is(told[0]!.detail, '4')
})

// ---------------------------------------------------------------- one request, the heads it uses

test('one request per step; CLICK reads its target head and the risk answer', async (t) => {
  const { decision, calls, ledger } = await decideWith({ answers: answers() })
  t.is(calls.length, 1)
  t.is(ledger.calls.length, 1)
  t.like(ledger.calls[0], { purpose: 'decision', inputTokens: 50 })
  t.deepEqual(calls[0]!.state, [{ type: 'json', value: buildDecisionRequest({ goal: 'Sort the results by price', observation: observation(), recent: [] }).state }])
  t.like(decision, { operation: 'CLICK', target: 'e3', confidence: 0.79, targetConfidence: 0.79, risk: 0.05 })
  t.deepEqual(decision.probabilities, dist(OFFERED, 'CLICK'))
  t.deepEqual(decision.targetProbabilities, dist(['e1', 'e3'], 'e3'))
  t.is(decision.option, undefined)
  t.is(typeof decision.decisionMs, 'number')
})

test('SELECT resolves an element+option choice into target and option', async (t) => {
  const { decision } = await decideWith({ answers: answers({ operation: choice(OFFERED, 'SELECT') }) })
  t.like(decision, { operation: 'SELECT', target: 'e4', option: 'o2', targetConfidence: 1, risk: 0.05 })
})

test('SCROLL_DOWN reads its target head but not the risk answer', async (t) => {
  const { decision } = await decideWith({
    answers: answers({ operation: choice(OFFERED, 'SCROLL_DOWN'), risk: { type: 'refusal' } }),
  })
  t.like(decision, { operation: 'SCROLL_DOWN', target: 'page', risk: undefined })
})

test('DONE uses no target head: confidence is the probability of DONE', async (t) => {
  const { decision } = await decideWith({ answers: answers({ operation: choice(OFFERED, 'DONE', 0.9) }) })
  t.is(decision.operation, 'DONE')
  t.is(decision.confidence, 0.9)
  t.is(decision.target, undefined)
  t.is(decision.targetConfidence, undefined)
  t.is(decision.risk, undefined)
})

test('unused heads are never validated: malformed speculative heads do not fail a DONE', async (t) => {
  const { decision } = await decideWith({
    answers: answers({
      operation: choice(OFFERED, 'DONE', 0.9),
      click_target: { type: 'choice', choice: 'e1', probabilities: { e1: 0.5, e3: 0.1 } },
      type_text_target: { type: 'choice', choice: 'e99' },
      submit_target: { type: 'refusal' },
      select_target: { type: 'score', score: 3 },
      risk: { type: 'boolean', probability: 7 },
    }),
  })
  t.is(decision.operation, 'DONE')
})

test('an unused head with a bad distribution does not fail a CLICK', async (t) => {
  const { decision } = await decideWith({
    answers: answers({ type_text_target: { type: 'choice', choice: 'e2', probabilities: { e2: 0.5 } } }),
  })
  t.like(decision, { operation: 'CLICK', target: 'e3' })
})

test('a missing answer fails even for an unused head (the SDK rule: one answer per question)', async (t) => {
  const all = answers({ operation: choice(OFFERED, 'DONE') })
  delete (all as Record<string, unknown>).select_target
  await rejectWith(t, { answers: all }, /exactly one answer for every question/)
})

// ---------------------------------------------------------------- validation of the heads used

test('rejects probabilities with an id that was not offered', async (t) => {
  const probabilities = { ...dist(OFFERED, 'CLICK'), FLY: 0 }
  const error = await rejectWith(t, { answers: answers({ operation: { type: 'choice', choice: 'CLICK', probabilities } }) }, /Question "operation"/)
  t.true(InvalidResponseDataError.isInstance(error))
  t.regex(error.message, /not offered FLY/)
})

test('rejects a target head whose probabilities miss an offered option', async (t) => {
  await rejectWith(
    t,
    { answers: answers({ click_target: { type: 'choice', choice: 'e3', probabilities: { e3: 1 } } }) },
    /Question "click_target" must give a probability for exactly the offered options; missing e1/,
  )
})

test('rejects a choice head without probabilities', async (t) => {
  await rejectWith(t, { answers: answers({ operation: { type: 'choice', choice: 'CLICK' } }) }, /Question "operation" must return probabilities/)
})

test('rejects NaN', async (t) => {
  const probabilities = { ...dist(OFFERED, 'CLICK'), WAIT: Number.NaN }
  await rejectWith(t, { answers: answers({ operation: { type: 'choice', choice: 'CLICK', probabilities } }) }, /"WAIT" is NaN/)
})

test('rejects values outside [0, 1]', async (t) => {
  await rejectWith(
    t,
    { answers: answers({ click_target: { type: 'choice', choice: 'e3', probabilities: { e1: -0.2, e3: 1.2 } } }) },
    /finite probabilities in \[0, 1\]; "e1" is -0.2/,
  )
})

test('rejects a sum off 1 when the provider declares no rounding', async (t) => {
  await rejectWith(
    t,
    { answers: answers({ click_target: { type: 'choice', choice: 'e3', probabilities: { e1: 0.2, e3: 0.79 } } }) },
    /Question "click_target" probabilities must sum to 1 within 0.000001; they sum to 0.99/,
  )
})

test('allows 0.02 for a provider that declares coarse rounding, and no more', async (t) => {
  const ok = await decideWith({
    answers: answers({ click_target: { type: 'choice', choice: 'e3', probabilities: { e1: 0.2, e3: 0.79 } } }),
    rounding: { probabilityDecimals: 1 },
  })
  t.is(ok.decision.target, 'e3')
  await rejectWith(
    t,
    {
      answers: answers({ click_target: { type: 'choice', choice: 'e3', probabilities: { e1: 0.2, e3: 0.77 } } }),
      rounding: { probabilityDecimals: 1 },
    },
    /must sum to 1 within 0.02; they sum to 0.97/,
  )
})

test('the tolerance widens only for providers declaring two or more decimals', (t) => {
  t.is(sumTolerance(8, undefined), 1e-6)
  t.is(sumTolerance(8, 0), 0.02)
  t.is(sumTolerance(8, 1), 0.02)
  t.true(Math.abs(sumTolerance(8, 2) - (1e-6 + 0.04)) < 1e-12, 'eight options rounded to 2 decimals may be off by 0.04')
  t.true(Math.abs(sumTolerance(2, 2) - (1e-6 + 0.01)) < 1e-12, 'never wider than the declared rounding')
})

test('a wide distribution rounded to two decimals passes within its declared rounding', async (t) => {
  // Eight options at 0.08 and CLICK at 0.33 sum to 0.97: more than 0.02 off, within 9 × 0.005.
  const probabilities = Object.fromEntries(OFFERED.map((id) => [id, id === 'CLICK' ? 0.33 : 0.08]))
  const { decision } = await decideWith({
    answers: answers({ operation: { type: 'choice', choice: 'CLICK', probabilities } }),
    rounding: { probabilityDecimals: 2 },
  })
  t.is(decision.confidence, 0.33)
})

test('rejects a choice that is not the most probable', async (t) => {
  await rejectWith(
    t,
    { answers: answers({ click_target: { type: 'choice', choice: 'e1', probabilities: { e1: 0.4, e3: 0.6 } } }) },
    /Question "click_target" did not select a highest-probability option: chose "e1" \(0.4\) over "e3" \(0.6\)/,
  )
})

test('a tie is a winning choice', async (t) => {
  const { decision } = await decideWith({
    answers: answers({ click_target: { type: 'choice', choice: 'e1', probabilities: { e1: 0.5, e3: 0.5 } } }),
  })
  t.like(decision, { target: 'e1', targetConfidence: 0.5 })
})

test('rejects an option that was not offered', async (t) => {
  await rejectWith(t, { answers: answers({ operation: { type: 'choice', choice: 'SCROLL_UP', probabilities: dist(OFFERED, 'CLICK') } }) }, /not offered: "SCROLL_UP"/)
})

test('a refusal of the operation fails the step', async (t) => {
  const error = await rejectWith(t, { answers: answers({ operation: { type: 'refusal' } }) }, /refused question "operation"/)
  t.is(error.name, 'AI_DecisionRefusalError')
})

test('a refusal of the target head in use fails the step', async (t) => {
  const error = await rejectWith(t, { answers: answers({ click_target: { type: 'refusal' } }) }, /refused question "click_target"/)
  t.is(error.name, 'AI_DecisionRefusalError')
})

test('a refused risk answer fails an action on an element', async (t) => {
  await rejectWith(t, { answers: answers({ risk: { type: 'refusal' } }) }, /refused question "risk"/)
})

test('rejects an answer of the wrong type', async (t) => {
  await rejectWith(t, { answers: answers({ operation: { type: 'score', score: 1 } }) }, /Question "operation" returned an answer with the wrong type/)
})

test('rejects a risk probability outside [0, 1] when the risk is read', async (t) => {
  await rejectWith(t, { answers: answers({ risk: { type: 'boolean', probability: 1.5 } }) }, /Question "risk" must return P\(true\)/)
})

test('rejects invalid rounding decimals', async (t) => {
  await rejectWith(t, { answers: answers(), rounding: { probabilityDecimals: 2.5 } }, /rounding decimals must be integers between 0 and 15/)
})

test('invalid answers keep their usage in the ledger', async (t) => {
  const { model } = decider({ answers: answers({ operation: { type: 'refusal' } }), providerMetadata: { gateway: { cost: '0.002' } } })
  const { run, ledger } = step({ decisions: model })
  await t.throwsAsync(run())
  t.like(ledger.calls[0], { inputTokens: 50, outputTokens: 5, usd: 0.002 })
})

// ---------------------------------------------------------------- decisions: false

function textDecider(reply: string, checklist?: ChecklistLine[]) {
  const model = new MockLanguageModelV4({ doGenerate: textResult(reply, { usage: tokenUsage(300, 20) }) })
  return { model, ...step({ decisions: false, text: model }, { checklist }) }
}

// ---------------------------------------------------------------- the checklist questions

const LINES: ChecklistLine[] = [
  { id: 'c2', item: 'Results for shoes are sorted by price', status: 'open', next: true },
  { id: 'c1', item: 'The search box holds shoes', status: 'done' },
  { id: 'c3', item: 'Open the cheapest result', status: 'judgment' },
  { id: 'c4', item: 'The page says sorted', status: 'judgment', disputed: true },
]
const DISPUTES = ['none', 'c2:other_wording', 'c2:no_such_control', 'c2:not_needed']

test('a request asks which judgment item the action serves and whether an open item is wrong, none first; only with such items', (t) => {
  const { questions, state } = buildDecisionRequest({ goal: 'g', observation: observation(), recent: [], checklist: LINES })
  t.deepEqual(Object.keys(questions).slice(-3), ['risk', 'serves', 'dispute'])
  t.deepEqual((questions.serves as { criteria: object }).criteria, { none: null, c3: 'Open the cheapest result' }, 'a disputed judgment is not served')
  t.deepEqual(Object.keys((questions.dispute as { criteria: object }).criteria), DISPUTES)
  t.regex((questions.serves as { instructions: string }).instructions, /checked only when the input lands and the page changes; typing checks none/)
  t.regex((questions.dispute as { instructions: string }).instructions, /other_wording: the page says it in other words/)
  t.deepEqual((state.checklist as { id: string }[]).map((line) => line.id), ['c2', 'c1', 'c3', 'c4'])
  const done = buildDecisionRequest({ goal: 'g', observation: observation(), recent: [], checklist: [{ id: 'c1', item: 'x', status: 'done' }] })
  t.false('serves' in done.questions || 'dispute' in done.questions)
})

test('the decision model\'s serves and dispute answers are read; none says nothing, and serves counts only for an action on an element', async (t) => {
  const extra = (operation: string, serves: string, dispute: string) =>
    answers({ operation: choice(OFFERED, operation), serves: choice(['none', 'c3'], serves), dispute: choice(DISPUTES, dispute) })
  const run = async (reply: Record<string, Experimental_DecisionModelV4Answer>) => step({ decisions: decider({ answers: reply }).model }, { checklist: LINES }).run()
  t.like(await run(extra('CLICK', 'c3', 'none')), { operation: 'CLICK', target: 'e3', serves: 'c3', dispute: undefined })
  t.like(await run(extra('DONE', 'c3', 'c2:other_wording')), { operation: 'DONE', serves: undefined, dispute: { item: 'c2', reason: 'other_wording' } })
  const quiet = await run(extra('CLICK', 'none', 'none'))
  t.false('serves' in quiet || 'dispute' in quiet)
  await t.throwsAsync(run(extra('CLICK', 'c9', 'none')), { message: /c9/ })
})

test('decisions: false reads serves and dispute, null as none, and refuses an answer that was not an option', async (t) => {
  t.like(await textDecider('{"operation":"CLICK","target":"e1","risky":false,"serves":"c3","dispute":null}', LINES).run(), { operation: 'CLICK', serves: 'c3', dispute: undefined })
  t.like(await textDecider('{"operation":"DONE","dispute":"c2:not_needed"}', LINES).run(), { operation: 'DONE', dispute: { item: 'c2', reason: 'not_needed' } })
  const error = await t.throwsAsync(textDecider('{"operation":"DONE","dispute":"c2"}', LINES).run())
  t.regex(error!.message, /answered "c2" to dispute, which is not one of its options \(none, c2:other_wording/)
})

test("decisions: 'local' says nothing about the checklist", async (t) => {
  const decision = await step({ decisions: 'local' }, { checklist: LINES }).run()
  t.is(decision.serves, undefined)
  t.is(decision.dispute, undefined)
})

test('decisions: false asks the text model the same state and questions', async (t) => {
  const { model, run, ledger } = textDecider('{"operation":"TYPE_TEXT","target":"e2","risky":false}')
  const decision = await run()
  t.like(decision, { operation: 'TYPE_TEXT', target: 'e2', risk: 0 })
  t.is(decision.confidence, undefined)
  t.is(decision.probabilities, undefined)
  t.is(decision.targetConfidence, undefined)
  t.is(model.doGenerateCalls.length, 1)
  t.like(ledger.calls[0], { purpose: 'decision', inputTokens: 300 })
  const prompt = promptOf(model)
  const request = buildDecisionRequest({ goal: 'Sort the results by price', observation: observation(), recent: [] })
  t.true(prompt.includes(JSON.stringify(JSON.stringify({ state: request.state, questions: request.questions })).slice(1, -1)))
  t.is(model.doGenerateCalls[0]!.reasoning, 'none')
})

test('decisions: false resolves SELECT pairs and reports risk', async (t) => {
  const { run } = textDecider('{"operation":"SELECT","target":"e4:o2","risky":true}')
  t.like(await run(), { operation: 'SELECT', target: 'e4', option: 'o2', risk: 1 })
})

test('decisions: false reads PRESS\'s key, and stops on a key not in the list before any input', async (t) => {
  t.like(await textDecider('{"operation":"PRESS","target":"page","key":"Escape","risky":false}').run(), { operation: 'PRESS', target: 'page', key: 'Escape', risk: 0 })
  const typed = await t.throwsAsync(textDecider('{"operation":"PRESS","target":"page","key":"rm -rf","risky":false}').run())
  t.regex(typed!.message, /answered "rm -rf" to press_key for PRESS, which is not one of its options \(Enter, Escape/)
  const none = await t.throwsAsync(textDecider('{"operation":"PRESS","target":"page","risky":false}').run())
  t.regex(none!.message, /answered null to press_key/)
})

test('the decision model\'s PRESS reads its key head; a key head it did not use is never checked', async (t) => {
  // No element of the observation reads keys outside a field: the named keys are offered.
  const keys = [...NAMED_KEYS]
  const { decision } = await decideWith({
    answers: answers({ operation: choice(OFFERED, 'PRESS'), press_key: choice(keys, 'Tab', 0.6) }),
  })
  t.like(decision, { operation: 'PRESS', target: 'page', key: 'Tab' })
  const click = await decideWith({ answers: answers({ press_key: { type: 'choice', choice: 'nonsense', probabilities: {} } }) })
  t.is(click.decision.key, undefined)
  t.is(click.decision.operation, 'CLICK')
})

test('decisions: false ignores a target sent with WAIT or DONE', async (t) => {
  const wait = await textDecider('{"operation":"WAIT","target":"e1","risky":false}').run()
  t.deepEqual({ ...wait, decisionMs: 0 }, { operation: 'WAIT', decisionMs: 0 })
  const done = await textDecider('{"operation":"DONE","target":"nonsense","risky":false}').run()
  t.is(done.operation, 'DONE')
  t.is(done.target, undefined)
})

test('decisions: false stops on an operation that was not offered', async (t) => {
  const error = await t.throwsAsync(textDecider('{"operation":"SCROLL_UP","target":"page","risky":false}').run())
  t.regex(error!.message, /operation "SCROLL_UP", which was not offered \(offered: CLICK, TYPE_TEXT/)
})

test('decisions: false stops on a target not offered for the operation', async (t) => {
  const error = await t.throwsAsync(textDecider('{"operation":"TYPE_TEXT","target":"e1","risky":false}').run())
  t.regex(error!.message, /target "e1" for TYPE_TEXT, which was not offered for it \(offered: e2\)/)
  const missing = await t.throwsAsync(textDecider('{"operation":"CLICK","target":null,"risky":false}').run())
  t.regex(missing!.message, /target null for CLICK/)
})

test('decisions: false accepts { operation, target } without risky, and reads the action as risky', async (t) => {
  t.like(await textDecider('{"operation":"CLICK","target":"e1"}').run(), { operation: 'CLICK', target: 'e1', risk: 1 })
  t.like(await textDecider('{"operation":"SELECT","target":"e4:o2","risky":null}').run(), { operation: 'SELECT', option: 'o2', risk: 1 })
  t.like(await textDecider('{"operation":"CLICK","target":"e1","risky":false}').run(), { operation: 'CLICK', risk: 0 })
  // Only actions on an element are rated: WAIT, DONE and the rest need no answer.
  const done = await textDecider('{"operation":"DONE"}').run()
  t.is(done.operation, 'DONE')
  t.is(done.risk, undefined)
})

test('decisions: false rejects a reply that is not the JSON asked for', async (t) => {
  for (const reply of ['{"operation":"CLICK","target":"e1","risky":false,"why":"x"}', '{"operation":"CLICK","target":"e1","risky":"no"}', 'CLICK e1', '[]']) {
    const error = await t.throwsAsync(textDecider(reply).run())
    t.true(NoObjectGeneratedError.isInstance(error), reply)
  }
})

// ---------------------------------------------------------------- the offline baseline

test("decisions: 'local' answers a real request and passes the strict checks", async (t) => {
  const { run, ledger } = step({ decisions: 'local' })
  const decision = await run()
  t.true(OFFERED.includes(decision.operation))
  t.is(ledger.calls.length, 1)
  t.is(typeof decision.confidence, 'number')
})

test('the risk question names four closed classes, and says that saving an edit is not in itself one of them', (t) => {
  // A model asked about "a post" rated saving a wiki page risky, and the run stopped.
  const { questions } = buildDecisionRequest({ goal: 'Save the page', observation: observation(), recent: [] })
  const instructions = (questions.risk as { instructions: string }).instructions
  t.regex(instructions, /\(1\) a payment or a purchase/)
  t.regex(instructions, /\(2\) deleting data, or overwriting it so that it cannot be recovered/)
  t.regex(instructions, /\(3\) sending something to other people \(a message, an invitation, an application/)
  t.regex(instructions, /\(4\) changing who may access what/)
  t.regex(instructions, /Saving an edit, or a new page or draft that can be edited again, is not in itself one of them/)
  t.notRegex(instructions, /\bpost\b/)
})

test('the operation question says the elements are listed in page order, so that "the 3rd text box" can be counted', (t) => {
  const { questions } = buildDecisionRequest({ goal: 'Type "x" into the 3rd text box', observation: observation(), recent: [] })
  t.regex((questions.operation as { instructions: string }).instructions, /state\.elements lists the controls in the order of the page.*"the third text box" is the third text box of the list/)
})

test('file inputs in view are not offered, and the page says how many were left out', (t) => {
  const rect = { x: 0, y: 0, width: 10, height: 10 }
  const blockers = [
    { kind: 'file_input' as const, frame: 0, rect },
    { kind: 'file_input' as const, frame: 1, rect },
  ]
  const { state } = buildDecisionRequest({ goal: 'g', observation: observation({ blockers }), recent: [] })
  t.is((state.page as { file_inputs_left_out?: number }).file_inputs_left_out, 2)
  const none = buildDecisionRequest({ goal: 'g', observation: observation(), recent: [] })
  t.false('file_inputs_left_out' in (none.state.page as object))
})

test('a note travels beside its action in the recent actions', (t) => {
  const recent: RecentAction[] = [
    { operation: 'SCROLL_DOWN', target: 'page', targetName: 'page', outcome: 'page_changed', detail: 'came into view: "BA 117 · €412"', note: 'cheapest so far: BA 117 at €412' },
    { operation: 'CLICK', targetName: 'Home', outcome: 'no_change' },
  ]
  const { state } = buildDecisionRequest({ goal: 'g', observation: observation(), recent })
  t.deepEqual(state.recent_actions, [
    { operation: 'SCROLL_DOWN', target_name: 'page', outcome: 'page_changed', detail: 'came into view: "BA 117 · €412"', note: 'cheapest so far: BA 117 at €412' },
    { operation: 'CLICK', target_name: 'Home', outcome: 'no_change' },
  ])
})

test('decisions: false keeps the note of a reply as model text, clipped to 300 characters', async (t) => {
  t.like(await textDecider('{"operation":"SCROLL_DOWN","target":"page","note":"AF 1 at €90; LH 2 at €120"}').run(), { operation: 'SCROLL_DOWN', note: 'AF 1 at €90; LH 2 at €120' })
  t.like(await textDecider('{"operation":"DONE","note":"done"}').run(), { operation: 'DONE', note: 'done' })
  const long = await textDecider(`{"operation":"CLICK","target":"e1","risky":false,"note":"${'x'.repeat(5_000)}"}`).run()
  t.true(long.note!.length <= 300, `${long.note!.length} characters`)
  t.true(long.note!.startsWith('xxx'))
  const quiet = await textDecider('{"operation":"CLICK","target":"e1","risky":false,"note":null}').run()
  t.false('note' in quiet)
  // The instructions say what a note is for and where it comes back.
  const { model, run } = textDecider('{"operation":"WAIT"}')
  await run()
  t.regex(JSON.stringify(model.doGenerateCalls[0]!.prompt), /note: what you want to remember in later steps.*at most 300 characters/)
})
