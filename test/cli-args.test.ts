import test from 'ava'
import { parseArgs } from '../src/cli/parse-args.ts'
import { describeError, toJson } from '../src/cli/output.ts'
import { CliError } from '../src/cli/cli-error.ts'
import { BlockedError } from '../src/errors.ts'

test('exec runs headless by default; --no-headless shows the browser', (t) => {
  t.like(parseArgs(['exec', 'a.js'], {}), { kind: 'exec', args: { file: 'a.js', headless: true, wsEndpoint: undefined } })
  t.like(parseArgs(['exec', 'a.js', '--no-headless'], {}), { kind: 'exec', args: { headless: false } })
  t.like(parseArgs(['--no-headless', 'exec', 'a.js'], {}), { kind: 'exec', args: { headless: false } })
})

test('the script gets every flag but the CLI\'s own, and the positionals after the file', (t) => {
  const command = parseArgs(['exec', 'a.js', '--no-headless', '--ws-endpoint=ws://h:3000', '--url=https://x.test/?a=1&b=2', '--goal=Find "x"', '--goal=Open it', '--samples=10', 'more'], {})
  t.deepEqual(command.kind === 'exec' && command.args.argv, {
    _: ['more'],
    url: 'https://x.test/?a=1&b=2',
    goal: ['Find "x"', 'Open it'],
    samples: 10,
  })
})

test('--ws-endpoint wins over BROWSER_WS_ENDPOINT, which is used when the flag is absent', (t) => {
  t.like(parseArgs(['exec', 'a.js'], { BROWSER_WS_ENDPOINT: 'ws://pool:3000' }), { args: { wsEndpoint: 'ws://pool:3000' } })
  t.like(parseArgs(['exec', 'a.js', '--ws-endpoint=wss://other'], { BROWSER_WS_ENDPOINT: 'ws://pool:3000' }), { args: { wsEndpoint: 'wss://other' } })
  t.like(parseArgs(['exec', 'a.js'], { BROWSER_WS_ENDPOINT: '' }), { args: { wsEndpoint: undefined } })
})

test('bad usage is a CliError with exit code 2', (t) => {
  for (const args of [[], ['exec'], ['serve', 'a.js'], ['exec', 'a.js', '--ws-endpoint'], ['exec', 'a.js', '--ws-endpoint=localhost:9222']]) {
    const error = t.throws(() => parseArgs(args, {}), { instanceOf: CliError })
    t.is(error.exitCode, 2)
  }
  t.deepEqual(parseArgs(['--help'], {}), { kind: 'help' })
  t.deepEqual(parseArgs(['exec', 'a.js', '-v'], {}), { kind: 'version' })
})

test('the printed JSON keeps errors readable and drops functions', (t) => {
  const result = { status: 'error', error: new BlockedError('captcha', 'A CAPTCHA is on the page.', []), profiling: () => {} }
  t.deepEqual(JSON.parse(toJson(result)!), {
    status: 'error',
    error: { name: 'BlockedError', message: 'A CAPTCHA is on the page.', code: 'BLOCKED', reason: 'captcha' },
  })
  t.is(toJson(undefined), undefined)
})

test('expected errors print without a stack, with their reason and causes', (t) => {
  const error = new Error('The goal failed.', { cause: new BlockedError('no_change', 'Three actions changed nothing.', []) })
  t.is(describeError(error, false), 'The goal failed.\n  caused by BlockedError: Three actions changed nothing. (reason: no_change)')
  t.regex(describeError(error, true), /\n\s+at /)
  t.regex(describeError(new TypeError('x is not a function'), false), /^TypeError: x is not a function\n\s+at /)
})

test('worker takes the queue\'s flags, with Redis and the remote browser from the environment when not given', (t) => {
  t.deepEqual(parseArgs(['worker'], {}), {
    kind: 'worker',
    args: {
      redis: 'redis://127.0.0.1:6379',
      queue: undefined,
      concurrency: 1,
      headless: true,
      wsEndpoint: undefined,
      cache: undefined,
      record: undefined,
      lockDuration: undefined,
      stalledInterval: undefined,
      maxStalled: undefined,
    },
  })
  t.like(parseArgs(['worker'], { REDIS_URL: 'redis://queue:6379', BROWSER_WS_ENDPOINT: 'ws://pool:3000' }), { args: { redis: 'redis://queue:6379', wsEndpoint: 'ws://pool:3000' } })
  t.like(
    parseArgs(
      ['worker', '--redis=redis://r:1', '--queue=shop', '--concurrency=4', '--ws-endpoint=ws://b:3000', '--cache=redis://c:2', '--record=runs', '--lock-duration=5000', '--stalled-interval=2000', '--max-stalled=2'],
      { REDIS_URL: 'redis://ignored:1' },
    ),
    {
      kind: 'worker',
      args: { redis: 'redis://r:1', queue: 'shop', concurrency: 4, wsEndpoint: 'ws://b:3000', cache: 'redis://c:2', record: 'runs', lockDuration: 5000, stalledInterval: 2000, maxStalled: 2 },
    },
  )
  t.like(parseArgs(['worker', '--no-cache', '--no-record', '--no-headless'], {}), { args: { cache: false, record: false, headless: false } })
})

test('produce takes one jobs file and the queue\'s flags', (t) => {
  t.deepEqual(parseArgs(['produce', 'jobs.jsonl'], {}), {
    kind: 'produce',
    args: { file: 'jobs.jsonl', redis: 'redis://127.0.0.1:6379', queue: undefined, attempts: undefined, backoff: undefined, out: undefined, wait: true },
  })
  t.like(parseArgs(['produce', 'jobs.json', '--attempts=5', '--backoff=0', '--out=results.jsonl', '--no-wait', '--queue=q'], {}), {
    args: { file: 'jobs.json', attempts: 5, backoff: 0, out: 'results.jsonl', wait: false, queue: 'q' },
  })
})

test('bad worker and produce flags are a CliError with exit code 2, naming the flag and the value', (t) => {
  const refused = (args: string[], message: RegExp) => {
    const error = t.throws(() => parseArgs(args, {}), { instanceOf: CliError, message })
    t.is(error.exitCode, 2)
  }
  refused(['worker', '--concurrency=0'], /--concurrency must be a whole number ≥ 1, got "0"/)
  refused(['worker', '--concurrency=two'], /--concurrency must be a whole number ≥ 1, got "two"/)
  refused(['worker', '--redis=localhost:6379'], /--redis must be a redis:\/\/ or rediss:\/\/ URL, got "localhost:6379"/)
  refused(['worker', '--ws-endpoint=localhost:9222'], /--ws-endpoint must be a ws:\/\/ or wss:\/\/ URL/)
  refused(['worker', '--url=x'], /Unknown flag --url for worker/)
  refused(['worker', 'script.js'], /worker takes no file/)
  refused(['worker', '--cache'], /--cache needs a directory or a redis:\/\/ URL/)
  refused(['produce'], /produce needs one jobs file/)
  refused(['produce', 'a.jsonl', 'b.jsonl'], /produce needs one jobs file/)
  refused(['produce', 'a.jsonl', '--attempts=0'], /--attempts must be a whole number ≥ 1/)
  refused(['produce', 'a.jsonl', '--goal=x'], /Unknown flag --goal for produce/)
  t.deepEqual(parseArgs(['worker', '--help'], {}), { kind: 'help' })
})
