import test from 'ava'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { RecordedRequest } from '../scripts/benchmark/recording.ts'
import type { ReplayResult } from '../scripts/benchmark/summary.ts'

const SCRIPT = fileURLToPath(new URL('../scripts/benchmark.ts', import.meta.url))

function runScript(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', SCRIPT, ...args], { env: { ...process.env, ...env }, timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

function lines<T>(file: string): T[] {
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as T)
}

const DEMO_GOAL = 'Search for "trail shoes" and open the first result'

/** The result line (the last) of the run.jsonl beside a report.html, after checking both are on disk. */
function resultOf(report: string): { kind: string; call: string; goal?: string; status: string } {
  if (basename(report) !== 'report.html' || !existsSync(report)) throw new Error(`no report.html at ${report}`)
  return lines<{ kind: string; call: string; goal?: string; status: string }>(join(dirname(report), 'run.jsonl')).at(-1)!
}

test('benchmark records the live requests on the demo, replays them to two local deciders, and can replay the recording again', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'benchmark-test-'))
  const record = join(folder, 'recording.jsonl')
  const recordings = join(folder, 'recordings')
  const out = join(folder, 'answers.jsonl')
  const live = await runScript(['--reference=local', '--models=local', '--samples=5', `--recording=${record}`, `--record=${recordings}`, `--out=${out}`], {
    DEBUG: 'puppeteer-agent:benchmark',
  })
  t.is(live.code, 0, live.stderr)

  // Live runs repeat until five requests are recorded (the demo goal takes about four per run).
  const recording = lines<RecordedRequest>(record)
  t.deepEqual(recording.map((item) => item.request), [1, 2, 3, 4, 5])
  const runs = recording.map((item) => item.run)
  t.is(runs[0], 1)
  t.deepEqual(runs, [...runs].sort((a, b) => a - b))
  for (const item of recording) {
    t.like(item, { model: 'local', goal: DEMO_GOAL })
    t.deepEqual(Object.keys(item.state).sort(), ['checklist', 'elements', 'goal', 'page', 'recent_actions'])
    // Every request carries how its live run ended: the demo goal succeeds; its "open the first result"
    // is a judgment item, which the page cannot prove, so the run is not verified.
    // With --record it also links the live run's report.
    const { report, ...outcome } = item.outcome!
    t.deepEqual(outcome, { status: 'success', verified: false })
    t.true(report!.startsWith(join(recordings, '/')), report)
    t.like(resultOf(report!), { kind: 'result', call: 'goal', goal: DEMO_GOAL, status: 'success' })
    t.is(item.questions.operation?.type, 'choice')
    t.is(item.answers.operation?.type, 'choice')
    t.is(typeof item.ms, 'number')
  }
  t.true('type_text_target' in recording[0]!.questions)

  const answers = lines<ReplayResult>(out)
  t.is(answers.length, 10)
  const decision = answers.filter((answer) => answer.kind === 'decision')
  t.deepEqual(decision.map((answer) => answer.request), [1, 2, 3, 4, 5])
  // The local model is deterministic: on identical inputs it gives the live answers again.
  for (const answer of decision) t.like(answer, { decider: 'local', answered: true, sameOperation: true, sameOperationAndTarget: true })
  t.is(decision[0]!.operation, 'TYPE_TEXT')
  // The local language model only writes values, so on the decisions:false path it answers nothing.
  for (const answer of answers.filter((item) => item.kind === 'language')) {
    t.like(answer, { decider: 'local', answered: false })
    t.regex(answer.error!, /local language model/)
  }

  t.regex(live.stdout, /^\| Decider \| Answered \| Median \| p90 \| Same operation as live `local` \| Same operation and target \|$/m)
  t.regex(live.stdout, /^\| `local` \| 5\/5 \| \d+ ms \| \d+ ms \| 5 \| 5 \|$/m)
  t.regex(live.stdout, /^\| `local` \(text model\) \| 0\/5 \| n\/a \| n\/a \| 0 \| 0 \|$/m)
  const liveRuns = new Set(runs).size
  // One report per live run, each run's requests linking the same one.
  const reports = new Map(recording.map((item) => [item.run, item.outcome!.report!]))
  t.is(new Set(reports.values()).size, liveRuns)
  for (const [run, report] of reports) {
    t.true(live.stdout.includes(`report of live run ${run}: ${report}\n`))
    t.true(live.stderr.includes(`[benchmark] live run ${run}: success, `) && live.stderr.includes(`requests recorded; report ${report}`))
  }
  const summary = live.stdout.match(/^recording: (.+) \(5 requests from (\d+) live runs? of local: (\d+) success(?:es)?, (\d+) verified\)$/m)
  // Successes, none verified: the demo goal keeps a judgment item ("open the first result").
  t.deepEqual(summary?.slice(1), [record, String(liveRuns), String(liveRuns), '0'])
  t.regex(live.stderr, /\[benchmark\] live run \d+: success, 5\/5 requests recorded/)
  t.is(live.stderr.match(/puppeteer-agent:benchmark \{"decider"/g)?.length, 10)

  const again = join(folder, 'again.jsonl')
  const replay = await runScript([`--replay=${record}`, '--samples=3', `--out=${again}`])
  t.is(replay.code, 0, replay.stderr)
  t.deepEqual(
    lines<ReplayResult>(again).map((answer) => [answer.decider, answer.request, answer.operation]),
    decision.slice(0, 3).map((answer) => [answer.decider, answer.request, answer.operation]),
  )
  t.notRegex(replay.stderr, /live run/)
  t.regex(replay.stdout, /^\| `local` \| 3\/3 \|/m)
  // A replay drives no page and records nothing; it still names the reports of the live runs it replays.
  t.true(replay.stdout.includes(`report of live run 1: ${reports.get(1)}\n`))
  for (const answer of lines<ReplayResult>(again)) t.false('report' in answer)
})

test('benchmark without --record records no run and links no report', async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'benchmark-test-'))
  const record = join(folder, 'recording.jsonl')
  // The flag, not the environment, decides what is recorded.
  const live = await runScript(['--reference=local', '--samples=1', `--recording=${record}`, `--out=${join(folder, 'answers.jsonl')}`], {
    PUPPETEER_AGENT_RECORD: join(folder, 'not-here'),
  })
  t.is(live.code, 0, live.stderr)
  const [item] = lines<RecordedRequest>(record)
  t.deepEqual(item!.outcome, { status: 'success', verified: false })
  t.false(existsSync(join(folder, 'not-here')))
  t.notRegex(live.stdout, /report of live run/)
  t.notRegex(live.stderr, /; report /)
})

test('benchmark refuses flags that do not apply to a replay, unknown flags, and --record naming a recording file', async (t) => {
  const mixed = await runScript(['--replay=/nonexistent.jsonl', '--url=demo'])
  t.is(mixed.code, 2)
  t.regex(mixed.stderr, /--url does not apply with --replay/)
  const unknown = await runScript(['--sample=3'])
  t.is(unknown.code, 2)
  t.regex(unknown.stderr, /Unknown flag --sample\b/)
  // A replay has no page, so no run to record.
  const replayRecord = await runScript(['--replay=/nonexistent.jsonl', '--record=/tmp/reports'])
  t.is(replayRecord.code, 2)
  t.regex(replayRecord.stderr, /--record does not apply with --replay/)
  // --record is a directory now; the recording file it used to name is --recording.
  const oldRecord = await runScript(['--reference=local', '--record=/tmp/recording.jsonl'])
  t.is(oldRecord.code, 2)
  t.regex(oldRecord.stderr, /--record takes a directory .*--recording=\/tmp\/recording\.jsonl/)
  t.notRegex(oldRecord.stderr, /\[benchmark\]/)
})
