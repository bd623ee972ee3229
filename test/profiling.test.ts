import test from 'ava'
import type { Experimental_DecisionModelV4, Experimental_DecisionModelV4Result } from '@ai-sdk/provider'
import { APICallError } from 'ai'
import type { TraceEntry } from '../types/index.d.ts'
import { mergeSettings, type Settings } from '../src/options.ts'
import { createLedger, recordCall, summarizeCost, summarizeTiming, type ModelCallRecord } from '../src/base/ledger.ts'
import { createGoalProfiling, type GoalProfilingInput } from '../src/profiling/goal-profiling.ts'
import { createExtractProfiling } from '../src/profiling/extract-profiling.ts'
import { logfmt, logStep } from '../src/base/log.ts'
import { decisionModel, type DecisionReply } from './helpers/decision-models.ts'
import { observedElement, pageObservation } from './helpers/observations.ts'
import { captureLog } from './helpers/debug-log.ts'

// ---------------------------------------------------------------- fixtures

function call(fields: Partial<ModelCallRecord> = {}): ModelCallRecord {
  return { purpose: 'decision', ms: 100, inputTokens: 1000, outputTokens: 10, usd: 0.001, generationIds: ['gen_a'], ...fields }
}

const observation = pageObservation({
  url: 'https://shop.test/results?q=bmw',
  title: 'Results',
  text: '12 results for bmw x3, sorted by price',
  elements: [
    observedElement('e1', { role: 'textbox', name: 'Search', tag: 'input', value: 'bmw x3', operations: ['type'] }),
    observedElement('e2', {
      role: 'combobox',
      name: 'Sort',
      tag: 'select',
      value: 'price',
      operations: ['select'],
      options: [
        { id: 'o1', label: 'Relevance', value: 'rel', selected: false },
        { id: 'o2', label: 'Lowest price', value: 'price', selected: true },
      ],
    }),
    observedElement('e3', { role: 'link', name: 'Next page', tag: 'a', operations: ['click'] }),
  ],
  frames: [{ url: 'https://shop.test/', crossOrigin: false }],
  signature: 's',
})

function entry(fields: Partial<TraceEntry>): TraceEntry {
  return { request: 1, step: 1, operation: 'CLICK', stale: false, pageChanged: true, decisionMs: 200, url: 'https://shop.test/', ...fields }
}

const trace: TraceEntry[] = [
  entry({ request: 1, step: 1, operation: 'TYPE_TEXT', target: 'e1', targetName: 'Search', text: 'bmw x3', confidence: 0.9 }),
  entry({ request: 2, step: 1, operation: 'CLICK', target: 'e5', targetName: 'Go', stale: true, pageChanged: false }),
  entry({ request: 3, step: 2, operation: 'SELECT', target: 'e2', targetName: 'Sort', option: 'o2' }),
  entry({ request: 4, step: 2, operation: 'DONE', pageChanged: false, confidence: 0.95 }),
]

/** An evaluator that answers each call with the next reply (the last one repeats). */
function evaluator(...replies: DecisionReply[]) {
  return decisionModel(replies, { modelId: 'judge' })
}

function verdict(probability: number, extra: Partial<Experimental_DecisionModelV4Result> = {}): Experimental_DecisionModelV4Result {
  return {
    answers: { goal_met: { type: 'boolean', probability } },
    warnings: [],
    usage: { inputTokens: 400, outputTokens: 3 },
    providerMetadata: { gateway: { cost: '0.0004', generationId: 'gen_eval' } },
    ...extra,
  }
}

function runLedger() {
  const ledger = createLedger()
  recordCall(ledger, call({ ms: 300, generationIds: ['gen_1'] }))
  recordCall(ledger, call({ purpose: 'text', ms: 200, cacheReadTokens: 50, reasoningTokens: 7, usd: 0.002, generationIds: ['gen_2'] }))
  return ledger
}

function profilingFor(model: Experimental_DecisionModelV4 | string, overrides: Partial<GoalProfilingInput> = {}, settings: Partial<Settings> = {}) {
  const ledger = overrides.ledger ?? runLedger()
  const profiling = createGoalProfiling({
    goal: 'Sort the bmw x3 results by lowest price',
    status: 'success',
    ledger,
    observation,
    trace,
    settings: mergeSettings({ evaluator: model, ...settings }),
    totalMs: 2000,
    ...overrides,
  })
  return { profiling, ledger }
}

const pending = () => new Promise<never>(() => {})

// ---------------------------------------------------------------- the ledger

test('cost sums every call; cache and reasoning count the calls that report them', (t) => {
  const cost = summarizeCost([
    call({ generationIds: ['gen_1'] }),
    call({ cacheReadTokens: 200, cacheWriteTokens: 20, reasoningTokens: 5, generationIds: ['gen_2'] }),
    call({ generationIds: [] }),
  ])
  t.deepEqual(cost, {
    calls: 3,
    inputTokens: 3000,
    outputTokens: 30,
    cachedInputTokens: 200,
    cacheWriteTokens: 20,
    reasoningTokens: 5,
    usd: 0.003,
    generationIds: ['gen_1', 'gen_2'],
  })
})

test('a total is undefined when any call did not report it, never understated', (t) => {
  t.is(summarizeCost([call(), call({ usd: undefined })]).usd, undefined)
  t.is(summarizeCost([call(), call({ inputTokens: undefined })]).inputTokens, undefined)
  t.is(summarizeCost([call({ outputTokens: undefined }), call()]).outputTokens, undefined)
  const partial = summarizeCost([call({ usd: undefined })])
  t.is(partial.inputTokens, 1000, 'each total stands on its own')
})

test('no calls cost nothing, exactly', (t) => {
  t.deepEqual(summarizeCost([]), {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    usd: 0,
    generationIds: [],
  })
})

test('dollars add up without floating-point drift', (t) => {
  t.is(summarizeCost([call({ usd: 0.1 }), call({ usd: 0.2 })]).usd, 0.3)
})

test('timing splits model time from the rest and keeps the evaluation apart', (t) => {
  const calls = [call({ ms: 300 }), call({ purpose: 'text', ms: 200.4 }), call({ purpose: 'evaluation', ms: 999 })]
  t.deepEqual(summarizeTiming(calls, 2000.6, 1010), { totalMs: 2001, modelMs: 500, otherMs: 1501, evaluationMs: 1010 })
})

// ---------------------------------------------------------------- goal profiling

test('the first call asks the evaluator once; later calls return the same object', async (t) => {
  const { model, calls } = evaluator(verdict(0.92))
  const { profiling } = profilingFor(model)
  const first = await profiling()
  const second = await profiling()
  t.is(first, second)
  t.is(calls.length, 1)
  t.deepEqual(first.accuracy, { passed: true, probability: 0.92 })
  t.is(first.error, undefined)
})

test('the evaluator reads the final page, its fields and the actions taken, without DONE', async (t) => {
  const { model, calls } = evaluator(verdict(0.92))
  await profilingFor(model).profiling()
  const request = calls[0]!
  t.deepEqual(Object.keys(request.questions), ['goal_met'])
  t.is(request.questions.goal_met!.type, 'boolean')
  const state = (request.state[0] as { type: 'json'; value: Record<string, unknown> }).value
  t.is(state.goal, 'Sort the bmw x3 results by lowest price')
  t.deepEqual(state.page, { url: observation.url, title: 'Results', text: observation.text })
  t.deepEqual(state.fields, [
    { name: 'Search', role: 'textbox', value: 'bmw x3' },
    { name: 'Sort', role: 'combobox', value: 'Lowest price' },
  ])
  t.deepEqual(state.actions, [
    { operation: 'TYPE_TEXT', target_name: 'Search', text: 'bmw x3', page_changed: true, url: 'https://shop.test/' },
    { operation: 'SELECT', target_name: 'Sort', option: 'o2', page_changed: true, url: 'https://shop.test/' },
  ])
})

test('cost includes the evaluator; its time is evaluationMs, not totalMs or modelMs', async (t) => {
  const { model } = evaluator(verdict(0.3))
  const { profiling } = profilingFor(model)
  const { accuracy, cost, timing } = await profiling()
  t.deepEqual(accuracy, { passed: false, probability: 0.3 })
  t.is(cost.calls, 3)
  t.is(cost.inputTokens, 2400)
  t.is(cost.usd, 0.0034)
  t.deepEqual(cost.generationIds, ['gen_1', 'gen_2', 'gen_eval'])
  t.is(cost.cachedInputTokens, 50)
  t.is(cost.reasoningTokens, 7)
  t.is(timing.totalMs, 2000)
  t.is(timing.modelMs, 500)
  t.is(timing.otherMs, 1500)
  t.true(timing.evaluationMs >= 0)
})

test('an evaluator that fails once: cost and timing still resolve, error says why, the next call retries', async (t) => {
  const failure = new Error('evaluator down')
  const { model, calls } = evaluator(failure, verdict(0.8))
  const { profiling } = profilingFor(model)
  const failed = await profiling()
  t.is(failed.accuracy, undefined)
  t.is(failed.error, failure)
  t.is(failed.cost.calls, 3, 'the failed attempt is counted')
  t.is(failed.cost.usd, undefined, 'and it reported no cost')
  t.is(failed.timing.totalMs, 2000)
  const retried = await profiling()
  t.deepEqual(retried.accuracy, { passed: true, probability: 0.8 })
  t.is(retried.error, undefined)
  t.is(retried.cost.calls, 4)
  t.is(calls.length, 2)
  t.is(await profiling(), retried)
})

test('an invalid evaluator answer is an error, not an accuracy', async (t) => {
  const { model } = evaluator(verdict(1.7), verdict(0.6))
  const { profiling } = profilingFor(model)
  const failed = await profiling()
  t.is(failed.accuracy, undefined)
  t.regex(failed.error!.message, /goal_met/)
  t.is((await profiling()).accuracy?.probability, 0.6)
})

test('profiling({ signal }) cancels the evaluation; the next call tries again', async (t) => {
  const { model, calls } = evaluator(pending, verdict(0.7))
  const { profiling } = profilingFor(model)
  const controller = new AbortController()
  const cancelled = profiling({ signal: controller.signal })
  setTimeout(() => controller.abort(new Error('cancelled by caller')), 5)
  const result = await cancelled
  t.is(result.accuracy, undefined)
  t.is(result.error?.message, 'cancelled by caller')
  t.is((await profiling()).accuracy?.probability, 0.7)
  t.is(calls.length, 2)
})

test('an already aborted signal makes no evaluator request', async (t) => {
  const { model, calls } = evaluator(verdict(0.7))
  const result = await profilingFor(model).profiling({ signal: AbortSignal.abort(new Error('no')) })
  t.is(result.error?.message, 'no')
  t.is(calls.length, 0)
})

test("the run's own signal does not cancel profiling after the run", async (t) => {
  const { model } = evaluator(verdict(0.9))
  const { profiling } = profilingFor(model, {}, { signal: AbortSignal.abort(new Error('run stopped')) })
  t.is((await profiling()).accuracy?.probability, 0.9)
})

test('the evaluation has its own timeout', async (t) => {
  const { model } = evaluator(pending)
  const result = await profilingFor(model, {}, { timeout: 20 }).profiling()
  t.is(result.error?.name, 'TimeoutError')
  t.regex(result.error!.message, /evaluator "mockprov:judge"/)
})

test('the evaluation is retried on a 429 like any model request', async (t) => {
  const limited = new APICallError({ message: 'slow down', url: 'u', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after-ms': '1' } })
  const { model, calls } = evaluator(limited, verdict(0.9))
  const result = await profilingFor(model).profiling()
  t.is(result.accuracy?.probability, 0.9)
  t.is(result.cost.calls, 4)
  t.is(calls.length, 2)
})

test('calls made while an evaluation runs share it', async (t) => {
  let release: (value: Experimental_DecisionModelV4Result) => void = () => {}
  const { model, calls } = evaluator(() => new Promise((resolve) => (release = resolve)))
  const { profiling } = profilingFor(model)
  const a = profiling()
  const b = profiling()
  await new Promise((resolve) => setTimeout(resolve, 5))
  release(verdict(0.9))
  t.is(await a, await b)
  t.is(calls.length, 1)
})

test('no observed page: accuracy is undefined, no request, no error', async (t) => {
  const { model, calls } = evaluator(verdict(0.9))
  const { profiling } = profilingFor(model, { observation: undefined, status: 'error' })
  const result = await profiling()
  t.is(result.accuracy, undefined)
  t.is(result.error, undefined)
  t.is(calls.length, 0)
  t.is(await profiling(), result)
})

test('a failed run has profiling too', async (t) => {
  const { model, calls } = evaluator(verdict(0.1))
  const { profiling } = profilingFor(model, { status: 'error' })
  t.deepEqual((await profiling()).accuracy, { passed: false, probability: 0.1 })
  t.is(calls.length, 1)
})

test('an evaluator that reports no usage leaves usd and tokens undefined', async (t) => {
  const { model } = evaluator({ answers: { goal_met: { type: 'boolean', probability: 0.9 } }, warnings: [] })
  const { cost } = await profilingFor(model).profiling()
  t.is(cost.usd, undefined)
  t.is(cost.inputTokens, undefined)
  t.is(cost.outputTokens, undefined)
  t.is(cost.cachedInputTokens, 50, 'the breakdowns still add what was reported')
})

test("evaluator: 'local' judges offline", async (t) => {
  const { accuracy, error } = await profilingFor('local').profiling()
  t.is(error, undefined)
  t.is(typeof accuracy?.probability, 'number')
})

test('the JSON form of a result leaves out the function and keeps the figures', async (t) => {
  const { model } = evaluator(verdict(0.92))
  const { profiling } = profilingFor(model)
  const result = { status: 'success', steps: 2, decisions: 4, trace, profiling }
  const json = JSON.parse(JSON.stringify(result))
  t.deepEqual(Object.keys(json), ['status', 'steps', 'decisions', 'trace'])
  const figures = await profiling()
  t.deepEqual(JSON.parse(JSON.stringify(figures)), {
    accuracy: { passed: true, probability: 0.92 },
    cost: { ...figures.cost },
    timing: { ...figures.timing },
  })
})

// ---------------------------------------------------------------- extraction

test('extraction profiling: rules, cost and timing, no accuracy, no request, the same object', async (t) => {
  const ledger = createLedger()
  recordCall(ledger, call({ purpose: 'rules', ms: 800 }))
  const rules = { title: { selector: 'h1', attr: 'text' } }
  const profiling = createExtractProfiling({ ledger, rules, totalMs: 1000, status: 'success' })
  const first = await profiling()
  t.deepEqual(Object.keys(first), ['rules', 'cost', 'timing'])
  t.deepEqual(first.rules, rules)
  t.is(first.cost.calls, 1)
  t.deepEqual(first.timing, { totalMs: 1000, modelMs: 800, otherMs: 200, evaluationMs: 0 })
  t.is(await profiling(), first)
})

// ---------------------------------------------------------------- debug lines

test('logfmt writes key=value pairs, quoting where needed and leaving out undefined', (t) => {
  t.is(
    logfmt({ a: 1, b: 'two words', c: 'say "hi"', d: undefined, e: true, f: ['x', 'y'], g: '', h: 'k=v', i: 0.123456789, j: 0.000306424 }),
    'a=1 b="two words" c="say \\"hi\\"" e=true f=x,y g="" h="k=v" i=0.1235 j=0.000306424',
  )
})

test.serial('debug: one line per step with operation, target, confidence and ms, never the typed text', (t) => {
  const { lines, restore } = captureLog()
  try {
    logStep(entry({ operation: 'TYPE_TEXT', target: 'e1', confidence: 0.87654, targetConfidence: 0.9, text: 'secret', textMs: 40 }), 512.4)
  } finally {
    restore()
  }
  t.is(lines.length, 1)
  t.true(lines[0]!.includes('puppeteer-agent'))
  t.regex(lines[0]!, /step request=1 step=1 operation=TYPE_TEXT target=e1 confidence=0\.8765 targetConfidence=0\.9 stale=false pageChanged=true ms=512 decisionMs=200 textMs=40/)
  t.false(lines[0]!.includes('secret'))
})

test.serial('debug: a finished goal logs status, cost and timing, and accuracy once profiling resolves it', async (t) => {
  const { model } = evaluator(verdict(0.92))
  const { lines, restore } = captureLog()
  try {
    const { profiling } = profilingFor(model)
    t.is(lines.length, 1)
    t.regex(lines[0]!, /goal status=success calls=2 inputTokens=2000 outputTokens=20 cachedInputTokens=50 cacheWriteTokens=0 reasoningTokens=7 usd=0\.003 generationIds=gen_1,gen_2 totalMs=2000 modelMs=500 otherMs=1500 evaluationMs=0/)
    t.false(lines[0]!.includes('passed='))
    await profiling()
    await profiling()
    t.is(lines.length, 2, 'the memoized result is not logged again')
    t.regex(lines[1]!, /goal status=success passed=true probability=0\.92 calls=3 .*generationIds=gen_1,gen_2,gen_eval totalMs=2000/)
  } finally {
    restore()
  }
})

test.serial('debug: a finished extraction logs its status, cost and timing', (t) => {
  const { lines, restore } = captureLog()
  try {
    createExtractProfiling({ ledger: createLedger(), rules: undefined, totalMs: 12, status: 'error' })
  } finally {
    restore()
  }
  t.is(lines.length, 1)
  t.regex(lines[0]!, /extract status=error calls=0 inputTokens=0 .*totalMs=12 modelMs=0 otherMs=12 evaluationMs=0/)
})
