import test from 'ava'
import { createRequire, registerHooks } from 'node:module'

// Each example needs the internet and a key, so it runs here against a fake page and a fake agent
// that record what the example asks for. This proves the scripts are well-formed, not that they work live.

const require = createRequire(import.meta.url)
const FAKE_AGENT = new URL('./fixtures/cli/fake-agent.cjs', import.meta.url)

registerHooks({
  resolve(specifier, context, nextResolve) {
    const demoPackage = specifier === '..' && context.parentURL?.endsWith('/examples/demo.js')
    if (specifier === 'puppeteer-agent' || demoPackage) return { url: FAKE_AGENT.href, shortCircuit: true }
    return nextResolve(specifier, context)
  },
})

interface FakeState {
  calls: unknown[][]
  failGoal: string | undefined
  data: unknown
}
const fake = require(FAKE_AGENT.pathname) as { state: FakeState }

type Example = (context: Record<string, unknown>) => Promise<unknown>

function load(name: string): Example {
  return require(`../examples/${name}`) as Example
}

async function run(name: string, argv: Record<string, unknown> = {}, data: unknown = { extracted: true }) {
  fake.state.calls = []
  fake.state.failGoal = undefined
  fake.state.data = data
  const page = { url: () => 'https://example.test/after' }
  const browserless = {
    goto: async (target: unknown, options: { url: string }) => {
      fake.state.calls.push(['goto', options.url, target === page])
      return { response: null }
    },
  }
  const value = await load(name)({ page, browser: {}, browserless, argv: { _: [], ...argv } })
  return { value, calls: fake.state.calls }
}

const names = (calls: unknown[][]) => calls.map((call) => call[0])
const goals = (calls: unknown[][]) => calls.filter((call) => call[0] === 'goal').map((call) => call[1])

const LIVE = [
  ['wallapop.js', 'https://wallapop.com', ['busca "bmw x3"', 'ordena los resultados de más barato a más caro']],
  ['wikipedia.js', 'https://en.wikipedia.org/wiki/Main_Page', ['Search for "Ada Lovelace" and open her article']],
  ['hacker-news.js', 'https://news.ycombinator.com', ['Open the comments page of the first story on the front page.']],
  ['github.js', 'https://github.com/puppeteer/puppeteer', ['Open the list of open issues of this repository.']],
] as const

for (const [name, url, expected] of LIVE) {
  test.serial(`${name}: navigates, runs its goals with profiling, extracts, and returns the data`, async (t) => {
    const { value, calls } = await run(name)
    t.deepEqual(calls[0], ['agent', undefined])
    t.deepEqual(calls[1], ['goto', url, true])
    t.deepEqual(goals(calls), [...expected])
    // Every goal asks for its profiling (the one evaluation request) before the next step.
    t.deepEqual(names(calls).slice(2), [...expected.flatMap(() => ['goal', 'profiling']), 'extract'])
    t.is(typeof calls.at(-1)![1], 'string')
    t.deepEqual(value, { extracted: true })
  })
}

test.serial('google-flights.js: consent first, then flights 30 days from today', async (t) => {
  const { value, calls } = await run('google-flights.js')
  t.deepEqual(calls[1], ['goto', 'https://www.google.com/travel/flights?hl=en', true])
  const [consent, search] = goals(calls) as string[]
  t.regex(consent!, /reject all cookies/)
  const day = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10)
  t.true(search!.includes(`from Zurich to London on ${day}`))
  t.deepEqual(names(calls).slice(-1), ['extract'])
  t.deepEqual(value, { extracted: true })
})

test.serial('a failed goal makes the example throw its error, and nothing runs after it', async (t) => {
  fake.state.failGoal = 'busca'
  const page = {}
  const browserless = { goto: async () => ({ response: null }) }
  fake.state.calls = []
  await t.throwsAsync(load('wallapop.js')({ page, browserless, argv: { _: [] } }), { message: 'The goal failed: busca "bmw x3"' })
  t.deepEqual(names(fake.state.calls), ['agent', 'goal', 'profiling'])
})

test.serial('run.js takes --url, repeated --goal and --extract from argv', async (t) => {
  const { value, calls } = await run('run.js', { url: 'https://example.test/', goal: ['first goal', 'second goal'], extract: 'get the title' })
  t.deepEqual(calls[1], ['goto', 'https://example.test/', true])
  t.deepEqual(goals(calls), ['first goal', 'second goal'])
  t.deepEqual(calls.at(-1), ['extract', 'get the title'])
  t.like(value, { url: 'https://example.test/after', data: { extracted: true } })
  t.like((value as { goals: unknown[] }).goals[0], { goal: 'first goal', status: 'success', accuracy: { passed: true } })
})

test.serial('run.js without --url or --goal says what it needs', async (t) => {
  await t.throwsAsync(run('run.js', { goal: 'x' }), { message: /run\.js needs --url=<url> and --goal=<goal>/ })
  await t.throwsAsync(run('run.js', { url: 'https://example.test/' }), { message: /needs --url=<url> and --goal=<goal>/ })
})

test.serial('demo.js uses the local models without AI_GATEWAY_API_KEY and the defaults with it', async (t) => {
  const data = { name: 'Trail Runner Pro', specs: [], reviews: [] }
  const key = process.env.AI_GATEWAY_API_KEY
  const notes: string[] = []
  const error = console.error
  console.error = (line: string) => notes.push(line)
  t.teardown(() => {
    console.error = error
    if (key === undefined) delete process.env.AI_GATEWAY_API_KEY
    else process.env.AI_GATEWAY_API_KEY = key
  })

  delete process.env.AI_GATEWAY_API_KEY
  const offline = await run('demo.js', {}, data)
  t.deepEqual(offline.calls[0], ['agent', { decisions: 'local', text: 'local', evaluator: 'local' }])
  t.regex(String(offline.calls[1]![1]), /^http:\/\/127\.0\.0\.1:\d+\/$/)
  t.deepEqual(goals(offline.calls), ['Search for "trail shoes" and open the first result'])
  t.deepEqual(offline.value, data)
  t.regex(notes[0]!, /No AI_GATEWAY_API_KEY: using the offline local models/)
  t.regex(notes[1]!, /^goal success in 2 steps \(CLICK "Search" > DONE\) · judged met \(p=0\.90\) · 4 model calls, \$0\.000300 · 2\.4 s · extracted 0 specs and 0 reviews$/)

  process.env.AI_GATEWAY_API_KEY = 'test-key'
  notes.length = 0
  const online = await run('demo.js', {}, data)
  t.deepEqual(online.calls[0], ['agent', {}])
  t.false(notes.some((line) => line.includes('local models')))
})

test.serial('util: flat profiling and logfmt make one readable debug line', (t) => {
  const { flat, logfmt } = require('../examples/util.js') as {
    flat: (profiling: unknown) => Record<string, unknown>
    logfmt: (fields: Record<string, unknown>) => string
  }
  const fields = flat({
    accuracy: { passed: true, probability: 0.92 },
    cost: { calls: 4, inputTokens: 8982, outputTokens: 500, usd: 0.000306424 },
    timing: { totalMs: 2410, modelMs: 1530, otherMs: 880, evaluationMs: 310 },
  })
  t.is(
    logfmt({ status: 'success', ...fields, note: 'two words' }),
    'status=success passed=true probability=0.92 calls=4 inputTokens=8982 outputTokens=500 usd=0.000306424 totalMs=2410 modelMs=1530 otherMs=880 evaluationMs=310 note="two words"',
  )
})

test.serial('every example loads as CommonJS and exports one function', (t) => {
  for (const name of ['wallapop.js', 'wikipedia.js', 'google-flights.js', 'hacker-news.js', 'github.js', 'run.js', 'demo.js']) {
    t.is(typeof load(name), 'function', name)
  }
})
