import test from 'ava'
import type { MockLanguageModelV4 } from 'ai/test'
import type { Experimental_DecisionModelV4, Experimental_DecisionModelV4Answer } from '@ai-sdk/provider'
import { mergeSettings } from '../src/options.ts'
import { createLedger } from '../src/base/ledger.ts'
import { callDecisionModel } from '../src/models/call-decision-model.ts'
import { recordingModel, type CapturedCall, type RecordedRequest } from '../scripts/benchmark/recording.ts'
import { readDecision } from '../src/decision/decide-step.ts'
import { referenceOf, replayOne, requestOf } from '../scripts/benchmark/replay.ts'
import { decisionModel as recordingDecisionModel } from './helpers/decision-models.ts'
import { promptOf, replyingModel, tokenUsage } from './helpers/language-models.ts'

const settings = mergeSettings({ maxRetries: 0, timeout: 5_000 })

const QUESTIONS: RecordedRequest['questions'] = {
  operation: { type: 'choice', instructions: 'Which operation?', criteria: { CLICK: null, SELECT: null, DONE: 'the goal is met' } },
  click_target: { type: 'choice', instructions: 'If the operation is CLICK: which element?', criteria: { e1: null, e2: null } },
  select_target: { type: 'choice', instructions: 'If the operation is SELECT: which option?', criteria: { 'e3:o1': null, 'e3:o2': null } },
  risk: { type: 'boolean', instructions: 'Is it risky?' },
}

function answers(operation: string, click: string, select = 'e3:o1'): Record<string, Experimental_DecisionModelV4Answer> {
  const choice = (chosen: string, options: string[]): Experimental_DecisionModelV4Answer => ({
    type: 'choice',
    choice: chosen,
    probabilities: Object.fromEntries(options.map((option) => [option, option === chosen ? 0.8 : 0.2 / (options.length - 1)])),
  })
  return {
    operation: choice(operation, ['CLICK', 'SELECT', 'DONE']),
    click_target: choice(click, ['e1', 'e2']),
    select_target: choice(select, ['e3:o1', 'e3:o2']),
    risk: { type: 'boolean', probability: 0.05 },
  }
}

function recorded(fields: Partial<RecordedRequest> = {}): RecordedRequest {
  return {
    request: 1,
    run: 1,
    model: 'live/model',
    goal: 'Open the second story',
    state: { goal: 'Open the second story', page: { url: 'http://127.0.0.1/', title: 'News' }, elements: [{ id: 'e1' }, { id: 'e2' }], recent_actions: [] },
    questions: QUESTIONS,
    answers: answers('CLICK', 'e2'),
    ms: 250,
    ...fields,
  }
}

/** A decision model answering every request with `reply()`, without usage. */
function decisionModel(reply: () => Record<string, Experimental_DecisionModelV4Answer>): Experimental_DecisionModelV4 {
  return recordingDecisionModel(() => ({ answers: reply(), warnings: [] })).model
}

function textModel(reply: object): MockLanguageModelV4 {
  return replyingModel([reply], { usage: tokenUsage(10, 5) })
}

test('the request is rebuilt from the recorded questions: operations, target heads, SELECT options', (t) => {
  const request = requestOf(recorded())
  t.deepEqual(request.operations, ['CLICK', 'SELECT', 'DONE'])
  t.deepEqual([...request.heads.CLICK!.options.entries()], [['e1', { target: 'e1' }], ['e2', { target: 'e2' }]])
  t.is(request.heads.SELECT!.question, 'select_target')
  t.deepEqual(request.heads.SELECT!.options.get('e3:o2'), { target: 'e3', option: 'o2' })
  t.throws(() => requestOf(recorded({ questions: { risk: QUESTIONS.risk! } })), { message: /no "operation" choice question/ })
})

test('the live answer is read the way the run read it', (t) => {
  t.deepEqual(referenceOf(recorded()), { operation: 'CLICK', target: 'e2' })
  t.deepEqual(referenceOf(recorded({ answers: answers('SELECT', 'e1', 'e3:o2') })), { operation: 'SELECT', target: 'e3:o2' })
  t.deepEqual(referenceOf(recorded({ answers: answers('DONE', 'e1') })), { operation: 'DONE' })
  // An answer the run could not have used has no reference.
  const unfit = answers('CLICK', 'e2')
  unfit.click_target = { type: 'choice', choice: 'e2', probabilities: { e1: 0.5, e2: 0.1 } }
  t.is(referenceOf(recorded({ answers: unfit })), undefined)
})

test('a decision model answers the identical request and is compared with the live answer', async (t) => {
  const agreeing = await replayOne({ name: 'same', model: decisionModel(() => answers('CLICK', 'e2')), kind: 'decision' }, recorded(), settings)
  t.like(agreeing, { decider: 'same', kind: 'decision', request: 1, answered: true, operation: 'CLICK', target: 'e2', sameOperation: true, sameOperationAndTarget: true })
  t.is(typeof agreeing.ms, 'number')
  const other = await replayOne({ name: 'other', model: decisionModel(() => answers('CLICK', 'e1')), kind: 'decision' }, recorded(), settings)
  t.like(other, { answered: true, target: 'e1', sameOperation: true, sameOperationAndTarget: false })
})

test('an answer the agent would reject counts as unanswered, with the reason', async (t) => {
  const offSum = answers('CLICK', 'e2')
  offSum.operation = { type: 'choice', choice: 'CLICK', probabilities: { CLICK: 0.5, SELECT: 0.1, DONE: 0.1 } }
  const result = await replayOne({ name: 'sloppy', model: decisionModel(() => offSum), kind: 'decision' }, recorded(), settings)
  t.like(result, { answered: false })
  t.regex(result.error!, /sum to 1/)
  t.is(result.sameOperation, undefined)
})

test('a language model answers the same state and questions through the decisions:false path', async (t) => {
  const model = textModel({ operation: 'CLICK', target: 'e2', risky: false })
  const result = await replayOne({ name: 'mock/text', model, kind: 'language' }, recorded(), settings)
  t.like(result, { decider: 'mock/text', kind: 'language', answered: true, operation: 'CLICK', target: 'e2', sameOperationAndTarget: true })
  const prompt = promptOf(model)
  t.true(prompt.includes('Open the second story'))
  t.true(prompt.includes('click_target'))
  const wrong = await replayOne({ name: 'mock/text', model: textModel({ operation: 'CLICK', target: 'e9', risky: false }), kind: 'language' }, recorded(), settings)
  t.like(wrong, { answered: false })
  t.regex(wrong.error!, /target "e9" for CLICK, which was not offered/)
})

test('the recording model captures the state and questions of each answered request and passes the answer through', async (t) => {
  const calls: CapturedCall[] = []
  const live = decisionModel(() => answers('CLICK', 'e2'))
  const request = requestOf(recorded())
  const decision = await callDecisionModel({
    model: recordingModel(live, (call) => calls.push(call)),
    settings,
    ledger: createLedger(),
    purpose: 'decision',
    state: request.state,
    questions: request.questions,
  }).then((reply) => readDecision(request, reply))
  t.like(decision, { operation: 'CLICK', target: 'e2', confidence: 0.8 })
  t.is(calls.length, 1)
  t.deepEqual(calls[0]!.state, recorded().state)
  t.deepEqual(calls[0]!.questions, QUESTIONS)
  t.deepEqual(calls[0]!.answers, answers('CLICK', 'e2'))
  t.is(typeof calls[0]!.ms, 'number')

  const failing: Experimental_DecisionModelV4 = { ...live, doDecide: async () => Promise.reject(new Error('HTTP 503')) }
  const wrapped = recordingModel(failing, (call) => calls.push(call))
  await t.throwsAsync(wrapped.doDecide({ state: [{ type: 'json', value: {} }], questions: QUESTIONS }))
  t.is(calls.length, 1, 'a failed attempt is not recorded')
})
