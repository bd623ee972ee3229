import test from 'ava'
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { CACHE_ENV } from '../src/cache/cache-settings.ts'
import { CliError } from '../src/cli/cli-error.ts'
import { parseArgs, USAGE } from '../src/cli/parse-args.ts'
import { BIN, ROOT, runCli } from './helpers/run-cli.ts'

// `exec --cache=<dir>` turns the replay cache on for the script through the environment variable
// the library reads, so scripts need no edit; `--no-cache` turns an inherited one off.

const SCRIPT = 'test/fixtures/cli/cache-env.mjs'


test.before(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npx tsc first (npm test does).`)
})

test('--cache=<dir> and --no-cache are the CLI\'s: parsed, kept out of the script\'s argv, in the help', (t) => {
  t.like(parseArgs(['exec', 'a.js', '--cache=.agent-cache', '--limit=3'], {}), { args: { cache: '.agent-cache', argv: { _: [], limit: 3 } } })
  t.like(parseArgs(['exec', 'a.js', '--cache', '/tmp/c'], {}), { args: { cache: '/tmp/c', argv: { _: [] } } })
  t.like(parseArgs(['exec', 'a.js', '--no-cache'], {}), { args: { cache: false } })
  t.like(parseArgs(['exec', 'a.js'], { [CACHE_ENV]: '/env/dir' }), { args: { cache: undefined } })
  const command = parseArgs(['exec', 'a.js', '--cache=d'], {})
  t.false(command.kind === 'exec' && 'cache' in command.args.argv)
  t.regex(USAGE, /--cache=<dir> .*replay cache/)
  t.regex(USAGE, /--no-cache .*PUPPETEER_AGENT_CACHE/)
})

test('--cache without a directory, or twice, is bad usage saying so', (t) => {
  for (const [args, message] of [
    [['exec', 'a.js', '--cache'], /--cache needs a directory: --cache=<dir>/],
    [['exec', 'a.js', '--cache=  '], /--cache needs a directory/],
    [['exec', 'a.js', '--cache=a', '--cache=b'], /--cache was given more than once/],
  ] as const) {
    const error = t.throws(() => parseArgs(args, {}), { instanceOf: CliError })
    t.is(error.exitCode, 2)
    t.regex(error.message, message)
  }
})

test('a script run with --cache=<dir> gets the cache without an edit; its own cache option wins', async (t) => {
  const run = await cli(['exec', SCRIPT, '--cache=.agent-cache'], {})
  t.is(run.code, 0, run.stderr)
  const absolute = resolve(ROOT, '.agent-cache')
  t.deepEqual(JSON.parse(run.stdout), { env: absolute, unset: absolute, own: 'own-dir', off: false })
})

test('the flag wins over PUPPETEER_AGENT_CACHE, which applies without it, and --no-cache turns it off', async (t) => {
  const [flag, inherited, off] = await Promise.all([
    cli(['exec', SCRIPT, '--cache=/tmp/from-flag'], { [CACHE_ENV]: '/tmp/from-env' }),
    cli(['exec', SCRIPT], { [CACHE_ENV]: '/tmp/from-env' }),
    cli(['exec', SCRIPT, '--no-cache'], { [CACHE_ENV]: '/tmp/from-env' }),
  ])
  for (const run of [flag, inherited, off]) t.is(run.code, 0, run.stderr)
  t.like(JSON.parse(flag.stdout), { env: '/tmp/from-flag', unset: '/tmp/from-flag' })
  t.like(JSON.parse(inherited.stdout), { env: '/tmp/from-env', unset: '/tmp/from-env' })
  t.deepEqual(JSON.parse(off.stdout), { env: null, unset: false, own: 'own-dir', off: false })
})

/** The CLI with `env` added to the environment. */
function cli(args: string[], env: NodeJS.ProcessEnv) {
  return runCli(args, { env })
}
