import test, { type ExecutionContext } from 'ava'
import type { Experimental_DecisionModelV4, Experimental_DecisionModelV4CallOptions } from '@ai-sdk/provider'
import type { MockLanguageModelV4 } from 'ai/test'
import type { Page } from 'puppeteer-core'
import { clip } from '../src/clip.ts'
import { LIMITS } from '../src/collector/limits.ts'
import type { RecentAction } from '../src/decision/decision.ts'
import { buildDecisionRequest } from '../src/decision/decision-request.ts'
import { REQUEST_LIMITS } from '../src/decision/request-bounds.ts'
import { NAMED_KEYS, PRESS_KEYS, type ElementCapability } from '../src/operations.ts'
import { textPrompt } from '../src/decision/write-text.ts'
import agent from '../src/index.ts'
import { evaluationRequest } from '../src/profiling/evaluate-goal.ts'
import type { TraceEntry } from '../types/index.d.ts'
import { useChrome } from './helpers/chrome.ts'
import { decisionModel } from './helpers/decision-models.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { scriptedModel, textDecider, textModel } from './helpers/goal-scripted-model.ts'
import { replyingModel } from './helpers/language-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'

// No page can make a request huge: a 1 MB title, a 1 MB URL fragment and 200 alerts of 10 KB each
// (fixture sites/bloat) are clipped and counted, so every request a model receives stays under the
// README's 40,000 characters, however many steps follow. And when every part is full at once, the
// request itself gives way until it fits.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const REQUEST_LIMIT = 40_000
const ATTACKS = ['title', 'hash', 'alerts'] as const

async function open(t: ExecutionContext, attack: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(`sites/bloat/index.html?${attack}`))
  return page
}

/** The size of a decision request as a provider would receive it: its state and its questions. */
function requestSize(options: Experimental_DecisionModelV4CallOptions): number {
  return JSON.stringify({ state: options.state, questions: options.questions }).length
}

/** Wraps a decision model so that the size of every request it receives is kept. */
function measured(model: Experimental_DecisionModelV4): { model: Experimental_DecisionModelV4; sizes: number[] } {
  const sizes: number[] = []
  return {
    sizes,
    model: {
      ...model,
      doDecide: (options) => {
        sizes.push(requestSize(options))
        return model.doDecide(options)
      },
    },
  }
}

const promptSizes = (model: MockLanguageModelV4) => model.doGenerateCalls.map((call) => JSON.stringify(call.prompt).length)

function underLimit(t: ExecutionContext, what: string, sizes: number[]): void {
  t.true(sizes.length > 0, `${what}: no request was made`)
  const largest = Math.max(...sizes)
  t.log(`${what}: ${sizes.length} requests, largest ${largest.toLocaleString('en')} characters`)
  t.true(largest < REQUEST_LIMIT, `${what}: a request of ${largest} characters`)
}

for (const attack of ATTACKS) {
  test(`${attack}: every decision request, text prompt and the evaluation stay under 40,000 characters`, async (t) => {
    const page = await open(t, attack)
    const scripted = scriptedModel([
      { operation: 'CLICK', target: 'Raise alerts' },
      { operation: 'CLICK', target: 'Next' },
      { operation: 'TYPE_TEXT', target: 'Search' },
      { operation: 'SELECT', target: 'Size', option: 'Large' },
      { operation: 'CLICK', target: 'Next' },
      { operation: 'DONE' },
    ])
    const decisions = measured(scripted.model)
    const text = textModel('trail shoes')
    const evaluator = decisionModel({ answers: { goal_met: { type: 'boolean', probability: 0.9 } }, warnings: [], usage: { inputTokens: 1, outputTokens: 1 } })
    const result = await agent(page).goal('Go through the steps.', { decisions: decisions.model, text, evaluator: evaluator.model, checklist: false })
    t.is(result.error, undefined)
    t.is(result.status, 'success')
    t.is(result.steps, 5)
    underLimit(t, 'decision requests', decisions.sizes)
    underLimit(t, 'text prompts', promptSizes(text))
    await result.profiling()
    underLimit(t, 'evaluation', evaluator.calls.map(requestSize))

    // The trace is returned to the caller and kept in memory: it holds clipped strings, and few dialogs.
    t.true(JSON.stringify(result.trace).length < REQUEST_LIMIT, `the trace is ${JSON.stringify(result.trace).length} characters`)
    const last = scripted.seen.at(-1)!
    if (attack === 'title') t.regex(last.page.title, /^3x+… \(1,048,576 characters\)$/)
    if (attack === 'hash') t.regex(last.page.url, /#3x+… \(\d{1,3}(,\d{3})* characters\)$/)
    if (attack === 'alerts') {
      const raised = result.trace[0]!
      t.is(raised.dialogs!.length, LIMITS.dialogsPerStep, 'the first few of the 200 are recorded')
      t.regex(raised.dialogs![0]!.message, /^1:0 a+… \(10,240 characters\)$/)
      t.is(await page.$eval('#count', (element) => element.textContent), '3', 'every alert was answered and the run went on')
    }
  })

  test(`${attack}: with decisions: false every prompt of the text model stays under 40,000 characters`, async (t) => {
    const page = await open(t, attack)
    const text = textDecider([
      { operation: 'CLICK', target: 'Raise alerts' },
      { operation: 'CLICK', target: 'Next' },
      { operation: 'CLICK', target: 'Next' },
      { operation: 'DONE' },
    ])
    const result = await agent(page).goal('Go through the steps.', { decisions: false, text, checklist: false })
    t.is(result.error, undefined)
    t.is(result.status, 'success')
    underLimit(t, 'text decisions', promptSizes(text))
  })

  test(`${attack}: the rule writer's prompt carries a clipped title and URL`, async (t) => {
    const page = await open(t, attack)
    await page.click('#next')
    const writer = replyingModel([{ rules: { step: { selector: 'h1' } } }])
    const result = await agent(page).extract('get the step heading', { text: writer })
    t.is(result.error, undefined)
    t.deepEqual(result.data, { step: 'Step 1' })
    underLimit(t, 'rule writer', promptSizes(writer))
  })
}

test('clip keeps a short string, and marks a long one with its length, within the bound', (t) => {
  t.is(clip('Checkout', 40), 'Checkout')
  const clipped = clip('x'.repeat(100_000), 40)
  t.is(clipped, `${'x'.repeat(18)}… (100,000 characters)`)
  t.is(clipped.length, 40)
  // An emoji straddling the cut is left out whole, never halved.
  t.is(clip(`${'x'.repeat(21)}😀${'x'.repeat(100)}`, 40), `${'x'.repeat(21)}… (123 characters)`)
})

// Each part at the most the collector and the loop let through: 6,000 characters of text that JSON
// escapes six-fold, 250 controls that can each be clicked, typed into and submitted, and ten actions
// with the longest typed value and detail.
const fullText = '\u0001'.repeat(6_000)
const fullElements = Array.from({ length: 250 }, (_, i) =>
  observedElement(`e${i + 1}`, { role: 'textbox', name: `Field ${i + 1}`, tag: 'input', operations: ['click', 'type', 'submit'], nearby: 'n'.repeat(40) }),
)
const fullRecent: RecentAction[] = Array.from({ length: 10 }, () => ({
  operation: 'TYPE_TEXT',
  targetName: 'n'.repeat(80),
  text: 't'.repeat(2_000),
  outcome: 'dialog',
  detail: 'd'.repeat(20_000),
  note: 'o'.repeat(20_000),
}))

test('the final bound: text, then the oldest actions, then the last controls give way, and dropped controls are counted', (t) => {
  const observation = pageObservation({ url: 'http://127.0.0.1/', title: 'Full', text: fullText, elements: fullElements })
  const request = buildDecisionRequest({ goal: 'Fill in the form.', observation, recent: fullRecent })
  const size = JSON.stringify({ state: request.state, questions: request.questions }).length
  t.true(size < REQUEST_LIMIT, `the request is ${size} characters`)
  const state = request.state as { page: { text?: string; omitted_controls?: number }; elements: unknown[]; recent_actions: { text: string; detail: string }[] }
  t.is(state.page.text, '', 'the text gave way first')
  t.true(state.recent_actions.length < 10, 'then the oldest actions')
  // With 250 such controls the history can give way whole (the notes made each action 300 characters
  // longer); with 200, the latest actions are still told, each part within its bound.
  const roomier = buildDecisionRequest({ goal: 'Fill in the form.', observation: { ...observation, elements: fullElements.slice(0, 200) }, recent: fullRecent })
  t.true(JSON.stringify({ state: roomier.state, questions: roomier.questions }).length < REQUEST_LIMIT)
  const told = (roomier.state as { recent_actions: { text: string; detail: string; note: string }[] }).recent_actions
  t.true(told.length > 0 && told.length < 10, `${told.length} actions told`)
  t.like(told.at(-1), { text: 't'.repeat(200), text_omitted: { before: 0, after: 1_800 } })
  t.regex(told.at(-1)!.detail, /… \(20,000 characters\)$/)
  t.is(told.at(-1)!.note.length, REQUEST_LIMITS.note)
  t.regex(told.at(-1)!.note, /^o+… \(20,000 characters\)$/)
  t.is(state.elements.length + (state.page.omitted_controls ?? 0), 250, 'every control is offered or counted as omitted')

  // Control characters alone: the text is clipped, not dropped, and every control stays.
  const few = buildDecisionRequest({ goal: 'Fill in the form.', observation: { ...observation, elements: fullElements.slice(0, 20) }, recent: [] })
  const fewState = few.state as { page: { text: string; omitted_controls?: number }; elements: unknown[] }
  t.true(JSON.stringify({ state: few.state, questions: few.questions }).length < REQUEST_LIMIT)
  t.regex(fewState.page.text, /^\u0001+… \(6,000 characters\)$/)
  t.is(fewState.elements.length, 20)
  t.is(fewState.page.omitted_controls, undefined)

  // Controls past what fits: the first ones stay, the rest are counted as omitted.
  const wide = fullElements.map((element) => ({ ...element, name: 'n'.repeat(80), value: 'v'.repeat(80), nearby: 'b'.repeat(60) }))
  const crowded = buildDecisionRequest({ goal: 'Fill in the form.', observation: { ...observation, text: '', elements: wide }, recent: [] })
  const crowdedState = crowded.state as { page: { omitted_controls: number }; elements: { id: string }[] }
  t.true(JSON.stringify({ state: crowded.state, questions: crowded.questions }).length < REQUEST_LIMIT)
  t.true(crowdedState.page.omitted_controls > 0)
  t.is(crowdedState.elements.length + crowdedState.page.omitted_controls, 250)
  t.deepEqual(crowdedState.elements.map((element) => element.id), wide.slice(0, crowdedState.elements.length).map((element) => element.id))
  t.deepEqual(Object.keys((crowded.questions.click_target as { criteria: object }).criteria), crowdedState.elements.map((element) => element.id))
})

test('the final bound: a page that reads keys is offered every key, its request fits, and a page that does not keeps the named keys', (t) => {
  const observation = pageObservation({ url: 'http://127.0.0.1/', title: 'Full', text: fullText, elements: fullElements })
  const plain = buildDecisionRequest({ goal: 'Fill in the form.', observation, recent: fullRecent })
  t.deepEqual(Object.keys((plain.questions.press_key as { criteria: object }).criteria), [...NAMED_KEYS])
  // Every control reads keys as a terminal does, and the document too: all of them are PRESS and TYPE_TEXT targets.
  const terminals = fullElements.map((element) => ({ ...element, role: 'generic', tag: 'div', operations: ['click', 'type', 'press', 'keys'] as ElementCapability[] }))
  const keyed = buildDecisionRequest({ goal: 'Fill in the form.', observation: { ...observation, elements: terminals, keysOnPage: true }, recent: fullRecent })
  const keys = JSON.stringify(keyed.questions.press_key)
  // As object keys, the digits come first: which keys are offered is what counts.
  t.deepEqual(Object.keys((keyed.questions.press_key as { criteria: object }).criteria).sort(), [...PRESS_KEYS].sort())
  t.log(`the key question: ${keys.length} characters`)
  t.true(keys.length < 3_000, `the key question is ${keys.length} characters`)
  const size = JSON.stringify({ state: keyed.state, questions: keyed.questions }).length
  t.true(size < REQUEST_LIMIT, `the request is ${size} characters`)
})

test('the final bound: long values of control characters, kept at 4,000 characters each, are shown in parts of 1,000 and every request fits', (t) => {
  // Kept 4,000 characters from the 2,001st of 9,000, the part shown from the 1,001st of those.
  const kept = { value: '\u0001\n'.repeat(LIMITS.keptValueLimit / 2), valueOmitted: { before: 2_000, after: 3_000 }, shownFrom: 1_000 }
  const elements = fullElements.map((element) => ({ ...element, tag: 'textarea', multiline: true as const, ...kept }))
  const observation = pageObservation({ url: 'http://127.0.0.1/', title: 'Full', text: fullText, elements })
  const request = buildDecisionRequest({ goal: 'Fill in the form.', observation, recent: fullRecent })
  const size = JSON.stringify({ state: request.state, questions: request.questions }).length
  t.true(size < REQUEST_LIMIT, `the request is ${size} characters`)
  const shown = (request.state as { elements: { value: string; value_omitted: unknown }[] }).elements
  t.true(shown.length > 0)
  t.deepEqual(shown[0], { ...shown[0], value: kept.value.slice(1_000, 1_000 + LIMITS.valueLimit), value_omitted: { before: 3_000, after: 5_000 } })
  // The operation question says what value_omitted is, only when a value is shown in part.
  const instructions = (request: { questions: Record<string, unknown> }) => (request.questions.operation as { instructions: string }).instructions
  t.regex(instructions(request), /value_omitted counts the characters left out before and after/)
  t.notRegex(instructions(buildDecisionRequest({ goal: 'Fill in the form.', observation: { ...observation, elements: fullElements }, recent: [] })), /value_omitted/)

  const prompt = textPrompt({ goal: 'Fill in the form.', observation, target: elements[0]!, recent: fullRecent })
  t.true(JSON.stringify(prompt).length < REQUEST_LIMIT, `the text prompt is ${JSON.stringify(prompt).length} characters`)
  t.like(prompt.field, { value: kept.value, value_omitted: kept.valueOmitted })
  const evaluation = JSON.stringify(evaluationRequest({ goal: 'Fill in the form.', observation, trace: [] }))
  t.true(evaluation.length < REQUEST_LIMIT, `the evaluation is ${evaluation.length} characters`)
})

test('the final bound: the text model’s prompt and the evaluator’s request fit too', (t) => {
  const observation = pageObservation({
    url: 'http://127.0.0.1/',
    title: 'Full',
    text: fullText,
    elements: fullElements.map((element) => ({ ...element, name: 'n'.repeat(80), value: 'v'.repeat(80) })),
  })
  const prompt = JSON.stringify(textPrompt({ goal: 'Fill in the form.', observation, target: observation.elements[0]!, recent: fullRecent }))
  t.true(prompt.length < REQUEST_LIMIT, `the text prompt is ${prompt.length} characters`)

  const trace: TraceEntry[] = Array.from({ length: 120 }, (_, i) => ({
    request: i + 1,
    step: i + 1,
    operation: 'TYPE_TEXT',
    targetName: 'n'.repeat(80),
    text: 't'.repeat(2_000),
    stale: false,
    pageChanged: true,
    decisionMs: 1,
    observeMs: 1,
    url: `http://127.0.0.1/${'u'.repeat(990)}`,
  }))
  const evaluation = evaluationRequest({ goal: 'Fill in the form.', observation, trace })
  const size = JSON.stringify(evaluation).length
  t.true(size < REQUEST_LIMIT, `the evaluation is ${size} characters`)
  // The text gives way first (the largest part, and what escapes inflate), then the history, then the fields.
  const state = evaluation.state as { page: { text: string }; fields: unknown[]; actions: unknown[] }
  t.is(state.page.text, '')
  t.is(state.actions.length, 0)
  t.true(state.fields.length > 0)
})
