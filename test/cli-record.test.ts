import test from 'ava'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { CliError } from '../src/cli/cli-error.ts'
import { parseArgs, USAGE } from '../src/cli/parse-args.ts'
import { BIN, runCli as cli } from './helpers/run-cli.ts'

// `exec --record=<dir>` records every run of the script (through the environment variable the
// library reads) and prints each report's path when the script ends; `npm start` does this for the demo.



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

test('--record into a folder that cannot be made: the script runs, stderr says why, and no report is printed', async (t) => {
  const file = join(await mkdtemp(join(tmpdir(), 'pa-cli-record-')), 'a-file')
  await writeFile(file, '')
  const run = await cli(['exec', 'test/fixtures/cli/esm.mjs', `--record=${join(file, 'sub')}`, '--url=data:text/html,<h1>Recorded</h1>'])
  t.is(run.code, 0, run.stderr)
  t.like(JSON.parse(run.stdout), { heading: 'Recorded' })
  t.regex(run.stderr, /^puppeteer-agent: record: cannot create the run folder .*\/a-file\/sub\/.*-extract-[0-9a-f]{4}: ENOTDIR/m)
  t.notRegex(run.stderr, /Report: /)
})
