import test from 'ava'
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CliError } from '../src/cli/cli-error.ts'
import { parseArgs, USAGE } from '../src/cli/parse-args.ts'
import { RECORD_ENV } from '../src/record/record-settings.ts'

// `exec --record=<dir>` records every run of the script (through the environment variable the
// library reads) and prints each report's path when the script ends; `npm start` does this for the demo.

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url))

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { AI_GATEWAY_API_KEY, BROWSER_WS_ENDPOINT, DEBUG, [RECORD_ENV]: inherited, ...env } = process.env
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  return new Promise((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
}

test.before(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npx tsc first (npm test does).`)
})

test('--record=<dir> and --no-record are the CLI\'s: parsed, kept out of argv, in the help', (t) => {
  t.like(parseArgs(['exec', 'a.js', '--record=runs', '--n=1'], {}), { args: { record: 'runs', argv: { _: [], n: 1 } } })
  t.like(parseArgs(['exec', 'a.js', '--no-record'], {}), { args: { record: false } })
  t.like(parseArgs(['exec', 'a.js'], {}), { args: { record: undefined } })
  const twice = t.throws(() => parseArgs(['exec', 'a.js', '--record=a', '--record=b'], {}), { instanceOf: CliError })
  t.regex(twice!.message, /--record was given more than once/)
  t.regex(USAGE, /--record=<dir>/)
})

test('the demo run with --record writes a goal and an extraction report and prints their paths', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-cli-record-'))
  const run = await cli(['exec', 'examples/demo.js', `--record=${dir}`])
  t.is(run.code, 0, run.stderr)
  const reports = run.stderr.split('\n').filter((line) => line.startsWith('Report: ')).map((line) => line.slice('Report: '.length))
  t.is(reports.length, 2, run.stderr)
  t.regex(reports[0]!, /-goal-search-for-trail-shoes/)
  t.regex(reports[1]!, /-extract-/)
  for (const report of reports) {
    t.is(dirname(dirname(report)), dir)
    t.regex(await readFile(report, 'utf8'), /^<!doctype html>/i)
  }
})
