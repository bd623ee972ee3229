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
