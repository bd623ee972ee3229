import test from 'ava'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { CompareRecord } from '../scripts/compare/record.ts'

const SCRIPT = fileURLToPath(new URL('../scripts/compare.ts', import.meta.url))
const DEMO_GOAL = 'Search for "trail shoes" and open the first result'
const RULES = JSON.stringify({ name: { selector: 'h1', attr: 'text' }, price: { selector: '.price', attr: 'text', type: 'number' } })

function runScript(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', SCRIPT, ...args], { env: { ...process.env, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

/** The result line (the last) of the run.jsonl beside a report.html, after checking both are on disk. */
function resultOf(report: string): { kind: string; call: string; goal?: string; status: string } {
  if (basename(report) !== 'report.html' || !existsSync(report)) throw new Error(`no report.html at ${report}`)
  const lines = readFileSync(join(dirname(report), 'run.jsonl'), 'utf8').trim().split('\n')
  return JSON.parse(lines.at(-1)!)
}

test('compare runs two local setups on the demo: one JSON line per run, the ranking on stdout, progress on stderr, each run linked to its reports', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'compare-test-'))
  const out = join(folder, 'runs.jsonl')
  const recordings = join(folder, 'recordings')
  const { code, stdout, stderr } = await runScript(
    [
      '--url=demo',
      '--decisions=local,none',
      '--text=local',
      '--runs=2',
      `--out=${out}`,
      '--verify-url=/product/',
      '--verify-text=Trail Runner',
      `--extract=${RULES}`,
      `--record=${recordings}`,
    ],
    // The flag, not the environment, decides what is recorded.
    { DEBUG: 'puppeteer-agent:compare', PUPPETEER_AGENT_RECORD: join(folder, 'not-here') },
  )
  t.is(code, 0, stderr)
  const records = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as CompareRecord)
  t.is(records.length, 4)
  // Interleaved: run 1 of each setup, then run 2.
  t.deepEqual(records.map((record) => [record.decisions, record.run]), [['local', 1], ['none', 1], ['local', 2], ['none', 2]])

  const done = records.filter((record) => record.decisions === 'local')
  for (const record of done) {
    // The demo goal's "open the first result" is a judgment item: the page cannot prove it, so the
    // agent does not call the run verified; the harness's own page checks (`verified`) pass.
    t.like(record, { text: 'local', reasoning: 'none', status: 'done', agentVerified: false, goalsDone: 1, verified: true, extracted: true, dataValues: 2, passed: true })
    t.is(record.failure, undefined)
    t.regex(record.path, /^TYPE_TEXT e\d+ > .* > DONE$/)
    t.true(record.decisionRequests >= 2)
    t.is(typeof record.staleDecisions, 'number')
    t.is(typeof record.actionsWithoutPageChange, 'number')
    t.true(record.minConfidence! > 0 && record.minConfidence! <= 1)
    t.true(record.probability! > 0.5)
    t.true(record.calls! >= record.decisionRequests + 1)
    t.true(record.totalMs! > 0)
    t.is(typeof record.modelMs, 'number')
    t.regex(record.finalUrl!, /^http:\/\/127\.0\.0\.1:\d+\/product\//)
    t.regex(record.dataHash!, /^[0-9a-f]{16}$/)
    t.is(typeof record.extractMs, 'number')
    // The goal's report, then the extraction's (rules alone: no instruction to name).
    t.is(record.reports?.length, 2)
    t.like(resultOf(record.reports![0]!), { kind: 'result', call: 'goal', goal: DEMO_GOAL, status: 'success' })
    t.like(resultOf(record.reports![1]!), { kind: 'result', call: 'extract', status: 'success' })
    t.is(resultOf(record.reports![1]!).goal, undefined)
  }
  t.is(done[0]!.dataHash, done[1]!.dataHash)

  // The local language model cannot take decisions: the run is recorded as an error and the rest went on.
  for (const record of records.filter((record) => record.decisions === 'none')) {
    t.like(record, { status: 'error', failure: 'model_failed', agentVerified: false, goalsDone: 0, path: '', verified: false })
    t.regex(record.error!, /local language model/)
    t.is(record.passed, undefined)
    t.is(record.extracted, undefined)
    t.deepEqual(record.verifyFailed, ['url contains "/product/"', 'text contains "Trail Runner"'])
    // The failed goal has its report; no extraction ran.
    t.is(record.reports?.length, 1)
    t.like(resultOf(record.reports![0]!), { kind: 'result', call: 'goal', goal: DEMO_GOAL, status: 'error' })
  }
  const reports = records.flatMap((record) => record.reports!)
  t.is(new Set(reports).size, 6)
  for (const report of reports) t.true(report.startsWith(join(recordings, '/')), report)
  t.false(existsSync(join(folder, 'not-here')))
  // The reports field comes last, after the extraction's fields.
  t.is(Object.keys(records[0]!).at(-1), 'reports')

  const result = JSON.parse(stdout)
  t.is(result.file, out)
  t.deepEqual(result.ranking.map((summary: { decisions: string }) => summary.decisions), ['local', 'none'])
  t.like(result.ranking[0], { runs: 2, doneRate: 1, agentVerifiedRate: 0, verifiedRate: 1, falseSuccesses: 0, passRate: 1, judgedRuns: 2, pathAgreement: 1, dataAgreement: 1 })
  t.is(result.ranking[0].failures, undefined)
  t.like(result.ranking[1], { runs: 2, doneRate: 0, agentVerifiedRate: 0, verifiedRate: 0, falseSuccesses: 0, passRate: 0, failures: { model_failed: 2 } })
  t.is(typeof result.ranking[0].p90TotalMs, 'number')
  t.is(result.ranking[1].p90TotalMs, undefined)

  t.regex(stderr, /\[compare\] 3\/4 decisions=local text=local reasoning=none run 2: done, page verified in /)
  t.true(stderr.includes(`; report ${records[2]!.reports![0]} (+1 in the record)`))
  t.regex(stderr, /decisions=none text=local reasoning=none run 1: error \[model_failed\], page NOT verified in /)
  // With DEBUG set, each record is logged as it finishes.
  t.is(stderr.match(/puppeteer-agent:compare \{"decisions"/g)?.length, 4)
})

test('compare refuses an unknown reasoning level, an unknown flag or a bad --record before any run', async (t) => {
  const level = await runScript(['--url=demo', '--decisions=local', '--text=local', '--reasoning=none,extreme'])
  t.is(level.code, 2)
  t.regex(level.stderr, /Unknown reasoning level "extreme"/)
  t.notRegex(level.stderr, /\[compare\]/)
  const flag = await runScript(['--url=demo', '--runz=2'])
  t.is(flag.code, 2)
  t.regex(flag.stderr, /Unknown flag --runz/)

  const blank = await runScript(['--url=demo', '--decisions=local', '--text=local', '--record='])
  t.is(blank.code, 2)
  t.regex(blank.stderr, /--record needs a directory/)
  t.notRegex(blank.stderr, /\[compare\]/)
  const file = join(mkdtempSync(join(tmpdir(), 'compare-test-')), 'a-file')
  writeFileSync(file, '')
  const notDirectory = await runScript(['--url=demo', '--decisions=local', '--text=local', `--record=${file}`])
  t.is(notDirectory.code, 2)
  t.regex(notDirectory.stderr, /--record must name a directory/)
})
