import test, { type ExecutionContext } from 'ava'
import { createGateway } from '@ai-sdk/gateway'
import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import type { Page } from 'puppeteer-core'
import type { Operation } from '../types/index.d.ts'
import agent from '../src/index.ts'
import { BACKOFF_START_MS } from '../src/models/retry-policy.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { gatewayError, GATEWAY_API_KEY, serveGateway, type GatewayServer, type ReceivedRequest } from './helpers/gateway-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'
import { CHAT_USAGE, lastUserText, serveOpenAICompatible, type ChatRequest } from './helpers/openai-compatible-server.ts'

// The model path over the wire: the real `@ai-sdk/gateway` provider (and `@ai-sdk/openai-compatible`
// for local model servers) sends HTTP requests to servers on 127.0.0.1, and a whole goal runs in real
// Chrome on the fixture sites. Faults come from the server: statuses, headers, bodies and sockets.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const DECIDER = 'typesafe-ai/jev'
const WRITER = 'openai/gpt-6-luna'
const JUDGE = 'typesafe-ai/judge'

const NEWS = 'sites/news/index.html'
const NEWS_GOAL = 'Open the comments of the first story.'
const NEWS_STEPS: ScriptStep[] = [{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }]

async function open(t: ExecutionContext, path: string): Promise<Page> {
  const page = await chrome.page(t)
  await page.goto(servers.site.url(path))
  return page
}

/** A gateway on 127.0.0.1 with a scripted decider, a text model and an evaluator, and the agent options that reach them. */
async function gatewayFor(t: ExecutionContext, steps: ScriptStep[], typed = 'unused') {
  const server = await serveGateway({
    decisionModels: { [DECIDER]: scriptedModel(steps).model, [JUDGE]: evaluatorModel(0.9) },
    languageModels: { [WRITER]: textModel(typed) },
  })
  t.teardown(server.close)
  const options = {
    decisions: server.provider.decisionModel(DECIDER),
    text: server.provider(WRITER),
    evaluator: server.provider.decisionModel(JUDGE),
    // The requests counted here are the decisions, the typed text and the evaluation (the checklist's own are in goal-checklist).
    checklist: false,
  }
  return { server, options }
}

const endpoints = (server: GatewayServer) => server.requests.map((request) => request.endpoint)
const gapMs = (requests: ReceivedRequest[], index: number) => requests[index]!.at - requests[index - 1]!.at

/** Rejects when `promise` has not settled within `ms`: a bound on a signal, so a missing one fails the test instead of hanging it. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms)
  })
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer))
}

test('a whole goal over HTTP: decisions, typed text and the evaluation go through the gateway provider, and its cost reaches profiling', async (t) => {
  const page = await open(t, 'sites/search/index.html')
  const { server, options } = await gatewayFor(
    t,
    [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
    'dune',
  )
  const { status, error, steps, trace, profiling } = await agent(page).goal('Search for dune.', options)
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 2)
  t.is(await page.$eval('#heading', (element) => element.textContent), 'Results for "dune"')
  t.like(trace[0], { operation: 'TYPE_TEXT', text: 'dune' })
  t.deepEqual(endpoints(server), ['decision-model', 'language-model', 'decision-model', 'decision-model'])

  // What went over the wire is what the real gateway receives.
  const [decision, generation] = server.requests
  t.like(decision!.headers, {
    authorization: `Bearer ${GATEWAY_API_KEY}`,
    'ai-model-id': DECIDER,
    'ai-decision-model-specification-version': '4',
  })
  const [statePart] = decision!.body.stateParts as { type: string; value: { goal: string } }[]
  t.like(statePart, { type: 'json', value: { goal: 'Search for dune.' } })
  t.like(decision!.body.questions, { operation: { type: 'choice' }, risk: { type: 'boolean' } })
  t.like(generation!.headers, {
    authorization: `Bearer ${GATEWAY_API_KEY}`,
    'ai-language-model-id': WRITER,
    'ai-language-model-specification-version': '4',
    'ai-language-model-streaming': 'false',
  })
  t.like(generation!.body, { responseFormat: { type: 'json' } })

  const { accuracy, cost } = await profiling()
  t.is(server.requests.at(-1)!.modelId, JUDGE)
  t.deepEqual(accuracy, { passed: true, probability: 0.9 })
  // GATEWAY_COST: four decision-model answers (three decisions, one evaluation) at $0.0002, one generation at $0.001.
  t.like(cost, { calls: 5, usd: 0.0018, inputTokens: 3 * 100 + 50 + 80, outputTokens: 3 * 5 + 5 + 2 })
  t.deepEqual(cost.generationIds, ['gen_1', 'gen_2', 'gen_3', 'gen_4', 'gen_5'])
})

test('429 with Retry-After: each retry waits what the gateway asked (0 s, then 1 s), not the backoff', async (t) => {
  const page = await open(t, NEWS)
  const { server, options } = await gatewayFor(t, NEWS_STEPS)
  const tooMany = (seconds: string, generationId: string) => ({
    status: 429,
    headers: { 'retry-after': seconds },
    body: gatewayError('rate_limit_exceeded', 'Too many requests', { generationId }),
  })
  server.fail('decision-model', tooMany('0', 'gen_limited_1'), tooMany('1', 'gen_limited_2'))
  const { status, error, decisions, profiling } = await agent(page).goal(NEWS_GOAL, options)
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(decisions, 2)
  t.true(page.url().endsWith('/sites/news/comments.html?story=1'))
  t.deepEqual(endpoints(server), Array(4).fill('decision-model'))
  // Without the header the pauses would be the backoff: BACKOFF_START_MS, then twice that.
  t.true(gapMs(server.requests, 1) < BACKOFF_START_MS, `first pause ${gapMs(server.requests, 1)} ms`)
  t.true(gapMs(server.requests, 2) >= 1000, `second pause ${gapMs(server.requests, 2)} ms`)
  t.true(gapMs(server.requests, 2) < 2 * BACKOFF_START_MS, `second pause ${gapMs(server.requests, 2)} ms`)

  // Every attempt counts; the failed ones reported no cost, so the total is unknown rather than understated.
  const { cost } = await profiling()
  t.like(cost, { calls: 5, usd: undefined })
  t.deepEqual(cost.generationIds.slice(0, 2), ['gen_limited_1', 'gen_limited_2'])
})

test('503 from the text model, then success: the write is retried and the goal goes on', async (t) => {
  const page = await open(t, 'sites/search/index.html')
  const { server, options } = await gatewayFor(
    t,
    [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
    'dune',
  )
  server.fail('language-model', { status: 503, headers: { 'retry-after': '0' }, body: gatewayError('internal_server_error', 'Upstream unavailable') })
  const { status, error, trace } = await agent(page).goal('Search for dune.', options)
  t.is(error, undefined)
  t.is(status, 'success')
  t.like(trace[0], { operation: 'TYPE_TEXT', text: 'dune' })
  t.deepEqual(endpoints(server), ['decision-model', 'language-model', 'language-model', 'decision-model', 'decision-model'])
})

test('a retry pause is model time: it counts in modelMs, not otherMs', async (t) => {
  const page = await open(t, NEWS)
  const { server, options } = await gatewayFor(t, NEWS_STEPS)
  const pauseMs = 400
  server.fail('decision-model', {
    status: 503,
    headers: { 'retry-after-ms': String(pauseMs) },
    body: gatewayError('internal_server_error', 'Upstream unavailable'),
  })
  const { status, error, profiling } = await agent(page).goal(NEWS_GOAL, options)
  t.is(error, undefined)
  t.is(status, 'success')
  t.true(gapMs(server.requests, 1) >= pauseMs)
  const { timing } = await profiling()
  // otherMs is the rest of totalMs, so the pause is in exactly one of them.
  t.true(timing.modelMs >= pauseMs, `modelMs ${timing.modelMs}, otherMs ${timing.otherMs} of ${timing.totalMs}`)
})

test('a socket that never answers: the run ends at `timeout` with a TimeoutError, and the request is aborted on the wire', async (t) => {
  const page = await open(t, NEWS)
  const { server, options } = await gatewayFor(t, NEWS_STEPS)
  server.fail('decision-model', 'hang')
  const timeout = 300
  const { status, error, steps } = await agent(page).goal(NEWS_GOAL, { ...options, timeout })
  const ended = performance.now()
  t.is(status, 'error')
  t.is(steps, 0)
  t.is(error?.name, 'TimeoutError')
  t.regex(error!.message, /decision model "typesafe-ai\/jev" did not answer within the timeout of 300 ms/)
  const [request] = server.requests
  t.is(server.requests.length, 1)
  // Promptly: the run ends at the deadline, not at a socket or protocol timeout. (The deadline counts
  // from the start of the model call, before the request reaches the server, so only the upper bound
  // holds on a busy machine.)
  t.true(ended - request!.at < timeout + 1000, `ended ${Math.round(ended - request!.at)} ms after the request`)
  const closed = await within(request!.abandoned, 1000, 'closing the hung request')
  t.true(closed - request!.at < timeout + 1000)
  t.true(page.url().endsWith(NEWS), 'nothing was clicked')
})

test('a malformed body: not retried, the run ends with the gateway’s response error and no input', async (t) => {
  const page = await open(t, NEWS)
  const { server, options } = await gatewayFor(t, NEWS_STEPS)
  server.fail('decision-model', { status: 200, body: '{"answers": {"operation": {"type": "choice", "cho' })
  const { status, error, steps } = await agent(page).goal(NEWS_GOAL, { ...options, maxRetries: 2 })
  t.is(status, 'error')
  t.is(steps, 0)
  t.is(error?.name, 'GatewayResponseError')
  t.is(server.requests.length, 1)
  t.true(page.url().endsWith(NEWS), 'nothing was clicked')
})

test('401: not retried, the error says the gateway rejected the key', async (t) => {
  const page = await open(t, NEWS)
  const { server } = await gatewayFor(t, NEWS_STEPS)
  const revoked = createGateway({ baseURL: server.baseURL, apiKey: 'revoked-key' })
  const { status, error, steps } = await agent(page).goal(NEWS_GOAL, { decisions: revoked.decisionModel(DECIDER), maxRetries: 2, checklist: false })
  t.is(status, 'error')
  t.is(steps, 0)
  t.is(error?.name, 'GatewayAuthenticationError')
  t.regex(error!.message, /AI Gateway authentication failed: Invalid API key/)
  t.is(server.requests.length, 1)
  t.is(server.requests[0]!.headers.authorization, 'Bearer revoked-key')
})

/** Answers like a local chat model told to reply in JSON: the decisions of `steps` by element name, and `typed` for a field. */
function localChatModel(steps: { operation: Operation; target?: RegExp }[], typed: string) {
  let decided = 0
  return (request: ChatRequest): string => {
    const prompt = JSON.parse(lastUserText(request)) as {
      state?: { elements: { id: string; name: string }[] }
      questions?: Record<string, { criteria?: Record<string, unknown> }>
    }
    // The TYPE_TEXT request describes a field; only decisions carry questions.
    if (!prompt.questions || !prompt.state) return JSON.stringify({ text: typed })
    const step = steps[Math.min(decided++, steps.length - 1)]!
    const offered = Object.keys(prompt.questions[`${step.operation.toLowerCase()}_target`]?.criteria ?? {})
    const target = step.target && prompt.state.elements.find((element) => step.target!.test(element.name) && offered.includes(element.id))
    if (step.target && !target) throw new Error(`No offered ${step.operation} target named ${step.target}`)
    return JSON.stringify({ operation: step.operation, target: target ? target.id : null, risky: false })
  }
}

test('decisions: false with @ai-sdk/openai-compatible: a local chat server takes the decisions and writes the text', async (t) => {
  const page = await open(t, 'sites/search/index.html')
  const server = await serveOpenAICompatible(
    localChatModel(
      [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
      'dune',
    ),
  )
  t.teardown(server.close)
  // As the README configures Ollama, vLLM or LM Studio.
  const local = createOpenAICompatible({ name: 'local', baseURL: server.baseURL, supportsStructuredOutputs: true })
  const { status, error, steps, trace, profiling } = await agent(page).goal('Search for dune.', {
    text: local('qwen3:8b'),
    decisions: false,
    reasoning: 'provider-default',
    evaluator: 'local',
    checklist: false,
  })
  t.is(error, undefined)
  t.is(status, 'success')
  t.is(steps, 2)
  t.is(await page.$eval('#heading', (element) => element.textContent), 'Results for "dune"')
  t.like(trace[0], { operation: 'TYPE_TEXT', text: 'dune' })
  t.like(trace[1], { operation: 'SUBMIT' })
  // Three decisions and one text, each a chat completion asking for JSON by schema (LM Studio refuses
  // `json_object`) and without `reasoning_effort` (vLLM refuses "none").
  t.is(server.requests.length, 4)
  for (const request of server.requests) {
    t.is(request.model, 'qwen3:8b')
    t.is(request.response_format?.type, 'json_schema')
    t.false('reasoning_effort' in request)
  }
  // A local server reports tokens but no price. The offline evaluator adds a call and no tokens.
  const { cost } = await profiling()
  t.like(cost, { calls: 5, inputTokens: 4 * CHAT_USAGE.prompt_tokens, outputTokens: 4 * CHAT_USAGE.completion_tokens, usd: undefined })
})

test('vision over HTTP: the gateway provider sends the badged screenshot as a file part of the state, base64 JPEG', async (t) => {
  const page = await open(t, 'sites/news/index.html')
  const { server, options } = await gatewayFor(t, [{ operation: 'DONE' }])
  const { status, error } = await agent(page).goal('Look at the news.', { ...options, vision: true })
  t.is(error, undefined)
  t.is(status, 'success')
  const parts = server.requests[0]!.body.stateParts as { type: string; mediaType?: string; data?: unknown }[]
  t.deepEqual(parts.map((part) => part.type), ['json', 'file'])
  t.is(parts[1]!.mediaType, 'image/jpeg')
  const data = parts[1]!.data as { type: string; data: string }
  t.is(data.type, 'data')
  t.is(Buffer.from(data.data, 'base64').readUInt16BE(0), 0xffd8)
})
