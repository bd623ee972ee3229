import test from 'ava'
import { APICallError, InvalidResponseDataError, NoObjectGeneratedError } from 'ai'
import { MockLanguageModelV4 } from 'ai/test'
import { GatewayAuthenticationError, GatewayRateLimitError } from '@ai-sdk/gateway'
import type { Experimental_DecisionModelV4, Experimental_DecisionModelV4Result, LanguageModelV4GenerateResult } from '@ai-sdk/provider'
import { z } from 'zod'
import { mergeSettings, type Settings } from '../src/options.ts'
import { createLedger, summarizeCost } from '../src/base/ledger.ts'
import { callDecisionModel } from '../src/models/call-decision-model.ts'
import { generateJson } from '../src/models/call-language-model.ts'
import { isRetryable, requestedDelayMs } from '../src/models/retry-policy.ts'
import { parseUsd, reportGeneration } from '../src/models/call-report.ts'
import { modelLabel, resolveDecisionModel, resolveLanguageModel } from '../src/models/resolve-model.ts'
import { answersOf, checkBoolean } from '../src/decision/check-answers.ts'
import { decisionModel } from './helpers/decision-models.ts'
import { textResult as bareTextResult } from './helpers/language-models.ts'

// ---------------------------------------------------------------- mocks

function yes(probability = 0.9, extra: Partial<Experimental_DecisionModelV4Result> = {}): Experimental_DecisionModelV4Result {
  return {
    answers: { met: { type: 'boolean', probability } },
    warnings: [],
    usage: { inputTokens: 10, outputTokens: 2 },
    providerMetadata: { gateway: { cost: '0.0001', generationId: 'gen_1' } },
    ...extra,
  }
}

function httpError(statusCode: number, headers: Record<string, string> = {}): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'https://example.invalid/decide',
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
  })
}

function settingsWith(overrides: Partial<Settings>): Settings {
  return mergeSettings(overrides)
}

const MET = { met: { type: 'boolean', instructions: 'Is the goal met?' } } as const

function askMet(model: Experimental_DecisionModelV4, settings: Partial<Settings> = {}, ledger = createLedger()) {
  return callDecisionModel({
    model,
    settings: settingsWith(settings),
    ledger,
    purpose: 'evaluation',
    state: { goal: 'g' },
    questions: MET,
  }).then((reply) => checkBoolean(answersOf(reply, MET), 'met', reply.model))
}

/** A reply with the full v7 usage breakdown and a gateway cost. */
function textResult(text: string, extra: Partial<LanguageModelV4GenerateResult> = {}): LanguageModelV4GenerateResult {
  return bareTextResult(text, {
    usage: {
      inputTokens: { total: 100, noCache: 80, cacheRead: 20, cacheWrite: 5 },
      outputTokens: { total: 12, text: 9, reasoning: 3 },
    },
    providerMetadata: { gateway: { cost: '0.00025', generationId: 'gen_text' } },
    ...extra,
  })
}

function askJson(model: MockLanguageModelV4, settings: Partial<Settings> = {}, ledger = createLedger()) {
  return generateJson({
    settings: settingsWith({ text: model, ...settings }),
    ledger,
    purpose: 'rules',
    instructions: 'Reply with JSON.',
    prompt: 'Say ok.',
    schema: z.strictObject({ ok: z.boolean() }),
  })
}

const never = () => new Promise<never>(() => {})
const later = <T>(ms: number, value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms))

// ---------------------------------------------------------------- resolution

test('a model id string resolves to an AI Gateway model; an instance is used as it is', (t) => {
  const decision = resolveDecisionModel('typesafe-ai/jev')
  t.is(decision.provider, 'gateway')
  t.is(decision.modelId, 'typesafe-ai/jev')
  const language = resolveLanguageModel('openai/gpt-6-luna')
  t.is(language.modelId, 'openai/gpt-6-luna')
  t.is(modelLabel(language), 'openai/gpt-6-luna')
  const { model: mock } = decisionModel(async () => yes())
  t.is(resolveDecisionModel(mock), mock)
  t.is(modelLabel(mock), 'mockprov:mock-1')
  const lm = new MockLanguageModelV4()
  t.is(resolveLanguageModel(lm), lm)
})

test("'local' resolves to the offline baseline models", (t) => {
  const settings = mergeSettings({ decisions: 'local', text: 'local', evaluator: 'local' })
  t.is(resolveDecisionModel(settings.decisions as object).provider, 'puppeteer-agent.local')
  t.is(resolveLanguageModel(settings.text).provider, 'puppeteer-agent.local')
  t.is(resolveDecisionModel(settings.evaluator).provider, 'puppeteer-agent.local')
})

test('a legacy decision model with only doEvaluate is adapted', async (t) => {
  const legacy = {
    specificationVersion: 'v4',
    provider: 'old',
    modelId: 'm',
    supportedQuestionTypes: ['boolean'],
    doEvaluate: async () => yes(0.7),
  }
  t.is(await askMet(resolveDecisionModel(legacy)), 0.7)
})

// ---------------------------------------------------------------- decision calls: accounting

test('a decision call records tokens, dollars from the gateway cost string, generation ids and time', async (t) => {
  const ledger = createLedger()
  t.is(await askMet(decisionModel(async () => yes(0.8)).model, {}, ledger), 0.8)
  t.is(ledger.calls.length, 1)
  const [call] = ledger.calls
  t.like(call, { purpose: 'evaluation', inputTokens: 10, outputTokens: 2, usd: 0.0001, generationIds: ['gen_1'] })
  t.true(call!.ms >= 0)
})

test('usage and cost are kept when the SDK rejects the answer', async (t) => {
  const ledger = createLedger()
  const { model, calls } = decisionModel(async () => yes(1.5))
  const error = await t.throwsAsync(askMet(model, {}, ledger))
  t.true(InvalidResponseDataError.isInstance(error))
  t.is(calls.length, 1, 'an invalid answer is not retried')
  t.like(ledger.calls[0], { inputTokens: 10, outputTokens: 2, usd: 0.0001, generationIds: ['gen_1'] })
})

test('usage and cost are kept when the model refuses, and a refusal is not retried', async (t) => {
  const ledger = createLedger()
  const { model, calls } = decisionModel(async () => yes(0.5, { answers: { met: { type: 'refusal' } } }))
  const error = await t.throwsAsync(askMet(model, {}, ledger))
  t.is(error?.name, 'AI_DecisionRefusalError')
  t.is(calls.length, 1)
  t.like(ledger.calls[0], { usd: 0.0001, inputTokens: 10 })
})

test('a model that reports no usage leaves the strict totals undefined', async (t) => {
  const ledger = createLedger()
  await askMet(decisionModel(async () => ({ answers: { met: { type: 'boolean', probability: 0.6 } }, warnings: [] })).model, {}, ledger)
  const cost = summarizeCost(ledger.calls)
  t.is(cost.calls, 1)
  t.is(cost.inputTokens, undefined)
  t.is(cost.outputTokens, undefined)
  t.is(cost.usd, undefined)
  t.deepEqual(cost.generationIds, [])
})

// ---------------------------------------------------------------- retries

test('429 then success: retried, both attempts counted', async (t) => {
  const ledger = createLedger()
  let attempt = 0
  const { model, calls } = decisionModel(async () => {
    if (attempt++ === 0) throw httpError(429, { 'retry-after-ms': '1' })
    return yes()
  })
  t.is(await askMet(model, {}, ledger), 0.9)
  t.is(calls.length, 2)
  t.is(ledger.calls.length, 2)
  t.is(ledger.calls[0]!.usd, undefined, 'the failed attempt reported nothing')
  t.is(summarizeCost(ledger.calls).usd, undefined, 'so the total is not understated')
  t.is(summarizeCost(ledger.calls).calls, 2)
})

test('a gateway rate-limit error (HTTP error as cause) is retried, honouring its Retry-After', async (t) => {
  let attempt = 0
  const { model, calls } = decisionModel(async () => {
    if (attempt++ === 0) {
      throw new GatewayRateLimitError({ message: 'Too many', statusCode: 429, cause: httpError(429, { 'Retry-After': '0' }) })
    }
    return yes()
  })
  t.is(await askMet(model), 0.9)
  t.is(calls.length, 2)
})

test('408 and 5xx and network errors are retried; other 4xx are not', (t) => {
  t.true(isRetryable(httpError(408)))
  t.true(isRetryable(httpError(500)))
  t.true(isRetryable(httpError(503)))
  t.true(isRetryable(new APICallError({ message: 'fetch failed', url: 'u', requestBodyValues: {}, isRetryable: true })))
  t.false(isRetryable(httpError(400)))
  t.false(isRetryable(httpError(401)))
  t.false(isRetryable(httpError(404)))
  t.false(isRetryable(new Error('plain')))
  t.false(isRetryable(new InvalidResponseDataError({ data: {}, message: 'bad' })))
  t.false(isRetryable(new GatewayAuthenticationError({ message: 'no key', statusCode: 401 })))
})

test('Retry-After is read in milliseconds, seconds or as a date', (t) => {
  t.is(requestedDelayMs(httpError(429, { 'retry-after-ms': '250' })), 250)
  t.is(requestedDelayMs(httpError(429, { 'retry-after': '3' })), 3000)
  const now = Date.parse('2030-01-01T00:00:00Z')
  t.is(requestedDelayMs(httpError(429, { 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' }), now), 5000)
  t.is(requestedDelayMs(httpError(429)), undefined)
  t.is(requestedDelayMs(httpError(429, { 'retry-after': 'soon' })), undefined)
})

test('401 is not retried and the original error is thrown', async (t) => {
  const ledger = createLedger()
  const original = new GatewayAuthenticationError({ message: 'AI Gateway authentication failed', statusCode: 401 })
  const { model, calls } = decisionModel(async () => {
    throw original
  })
  const error = await t.throwsAsync(askMet(model, {}, ledger))
  t.is(error, original)
  t.is(calls.length, 1)
  t.is(ledger.calls.length, 1, 'the failed attempt still counts')
})

test('a Retry-After longer than maxRetryAfterMs stops with an error naming both', async (t) => {
  const ledger = createLedger()
  const original = httpError(429, { 'retry-after': '30' })
  const { model, calls } = decisionModel(async () => {
    throw original
  })
  const error = await t.throwsAsync(askMet(model, { maxRetryAfterMs: 10_000 }, ledger))
  t.regex(error!.message, /retry after 30000 ms, longer than maxRetryAfterMs \(10000 ms\)/)
  t.is(error!.cause, original)
  t.is(calls.length, 1)
  t.is(ledger.calls.length, 1)
})

test('retries stop after maxRetries and the last original error is thrown', async (t) => {
  const ledger = createLedger()
  const errors = [httpError(503, { 'retry-after-ms': '0' }), httpError(502, { 'retry-after-ms': '0' }), httpError(500, { 'retry-after-ms': '0' })]
  let attempt = 0
  const { model, calls } = decisionModel(async () => {
    throw errors[attempt++]
  })
  const error = await t.throwsAsync(askMet(model, { maxRetries: 2 }, ledger))
  t.is(error, errors[2])
  t.is(calls.length, 3)
  t.is(ledger.calls.length, 3)
})

test('maxRetries: 0 makes one attempt', async (t) => {
  const { model, calls } = decisionModel(async () => {
    throw httpError(503, { 'retry-after-ms': '0' })
  })
  await t.throwsAsync(askMet(model, { maxRetries: 0 }))
  t.is(calls.length, 1)
})

test('without Retry-After the pause is a backoff, and a gateway failure names its generation', async (t) => {
  const ledger = createLedger()
  let attempt = 0
  const { model } = decisionModel(async () => {
    if (attempt++ === 0) throw new GatewayRateLimitError({ message: 'Too many', statusCode: 429, generationId: 'gen_err' })
    return yes()
  })
  t.is(await askMet(model, {}, ledger), 0.9)
  t.deepEqual(summarizeCost(ledger.calls).generationIds, ['gen_err', 'gen_1'])
})

// ---------------------------------------------------------------- time and cancellation

test('a request that outlives the timeout rejects with a TimeoutError naming the model and the timeout', async (t) => {
  const ledger = createLedger()
  const { model, calls } = decisionModel(never)
  const error = await t.throwsAsync(askMet(model, { timeout: 30 }, ledger))
  t.is(error!.name, 'TimeoutError')
  t.regex(error!.message, /evaluator "mockprov:mock-1" did not answer within the timeout of 30 ms/)
  t.is(calls.length, 1, 'a timeout is not retried')
  t.is(ledger.calls.length, 1)
})

test('a reply after the timeout is discarded even when the model ignored the abort', async (t) => {
  const ledger = createLedger()
  let delivered = false
  const { model } = decisionModel(async () => {
    const reply = await later(120, yes())
    delivered = true
    return reply
  })
  const error = await t.throwsAsync(askMet(model, { timeout: 20 }, ledger))
  t.is(error!.name, 'TimeoutError')
  await later(150, null)
  t.true(delivered)
  t.is(ledger.calls.length, 1)
  t.is(ledger.calls[0]!.inputTokens, undefined, 'the late reply is not counted into the attempt')
})

test('the caller signal aborts a request in flight with its own reason', async (t) => {
  const controller = new AbortController()
  let seen: AbortSignal | undefined
  const { model } = decisionModel(async (options) => {
    seen = options.abortSignal
    setTimeout(() => controller.abort(new Error('user stop')), 5)
    return never()
  })
  const error = await t.throwsAsync(askMet(model, { signal: controller.signal }))
  t.is(error!.message, 'user stop')
  t.true(seen?.aborted, 'the model was given the combined signal')
})

test('an already aborted signal makes no model call', async (t) => {
  const { model, calls } = decisionModel(async () => yes())
  const ledger = createLedger()
  const error = await t.throwsAsync(askMet(model, { signal: AbortSignal.abort(new Error('gone')) }, ledger))
  t.is(error!.message, 'gone')
  t.is(calls.length, 0)
  t.is(ledger.calls.length, 0)
})

test('an abort during the pause between attempts ends the request with the abort reason', async (t) => {
  const controller = new AbortController()
  const { model, calls } = decisionModel(async () => {
    setTimeout(() => controller.abort(new Error('stop while waiting')), 5)
    throw httpError(503, { 'retry-after-ms': '5000' })
  })
  const error = await t.throwsAsync(askMet(model, { signal: controller.signal }))
  t.is(error!.message, 'stop while waiting')
  t.is(calls.length, 1)
})

// ---------------------------------------------------------------- generateJson

test('generateJson returns the validated object and records the v7 usage breakdown', async (t) => {
  const ledger = createLedger()
  const model = new MockLanguageModelV4({ doGenerate: textResult('{"ok":true}') })
  t.deepEqual(await askJson(model, {}, ledger), { ok: true })
  t.like(ledger.calls[0], {
    purpose: 'rules',
    inputTokens: 100,
    outputTokens: 12,
    cacheReadTokens: 20,
    cacheWriteTokens: 5,
    reasoningTokens: 3,
    usd: 0.00025,
    generationIds: ['gen_text'],
  })
  const call = model.doGenerateCalls[0]!
  t.is(call.reasoning, 'none', 'reasoning comes from settings')
  t.is(call.responseFormat?.type, 'json')
})

test('generateJson passes reasoning and the token budget', async (t) => {
  const model = new MockLanguageModelV4({ doGenerate: textResult('{"ok":true}') })
  await generateJson({
    settings: settingsWith({ text: model, reasoning: 'low' }),
    ledger: createLedger(),
    purpose: 'text',
    instructions: 'i',
    prompt: 'p',
    schema: z.strictObject({ ok: z.boolean() }),
    maxOutputTokens: 77,
  })
  t.is(model.doGenerateCalls[0]!.reasoning, 'low')
  t.is(model.doGenerateCalls[0]!.maxOutputTokens, 77)
})

test('a reply that does not match the schema is not retried and its usage is kept', async (t) => {
  const ledger = createLedger()
  const model = new MockLanguageModelV4({ doGenerate: textResult('{"ok":"yes"}') })
  const error = await t.throwsAsync(askJson(model, {}, ledger))
  t.true(NoObjectGeneratedError.isInstance(error))
  t.is(model.doGenerateCalls.length, 1)
  t.like(ledger.calls[0], { inputTokens: 100, usd: 0.00025 })
})

test('generateJson retries 429 and then succeeds', async (t) => {
  const ledger = createLedger()
  let attempt = 0
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      if (attempt++ === 0) throw httpError(429, { 'retry-after-ms': '1' })
      return textResult('{"ok":false}')
    },
  })
  t.deepEqual(await askJson(model, {}, ledger), { ok: false })
  t.is(ledger.calls.length, 2)
})

test('generateJson discards a reply that arrives after the timeout', async (t) => {
  const ledger = createLedger()
  const model = new MockLanguageModelV4({ doGenerate: () => later(100, textResult('{"ok":true}')) })
  const error = await t.throwsAsync(askJson(model, { timeout: 20 }, ledger))
  t.is(error!.name, 'TimeoutError')
  t.regex(error!.message, /text model "mock-provider:mock-model-id"/)
  await later(120, null)
  t.is(ledger.calls.length, 1)
  t.is(ledger.calls[0]!.inputTokens, undefined)
})

test('the gateway cost is parsed as a decimal string, anything else is unknown', (t) => {
  t.is(parseUsd('0.0091175'), 0.0091175)
  t.is(parseUsd('1e-7'), 1e-7)
  t.is(parseUsd(0.5), 0.5)
  t.is(parseUsd(''), undefined)
  t.is(parseUsd('free'), undefined)
  t.is(parseUsd('-1'), undefined)
  t.is(parseUsd(undefined), undefined)
  t.is(parseUsd({ usd: 1 }), undefined)
})

test('a language model reporting no usage gives undefined tokens', (t) => {
  const report = reportGeneration(
    textResult('{}', {
      usage: {
        inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: undefined, text: undefined, reasoning: undefined },
      },
      providerMetadata: undefined,
    }),
  )
  t.deepEqual(report, {
    inputTokens: undefined,
    outputTokens: undefined,
    cacheReadTokens: undefined,
    cacheWriteTokens: undefined,
    reasoningTokens: undefined,
    usd: undefined,
    generationIds: [],
  })
})
