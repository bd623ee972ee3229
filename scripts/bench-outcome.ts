// npm run bench:outcome -- [--cases=01,05] [--fixtures=<dir>] [--runs=1] [--concurrency=2] [--writer=capable] [--out=file.jsonl]
// Does the outcome tell the truth (issue 43)? Every case of the reach suite (test/fixtures/reach, or
// another folder with --fixtures, such as test/fixtures/reach-open) played through agent.goal with the
// oracle of bench:reach deciding and typing (scripts/reach/play.ts), the case's secrets when it has
// them, risky actions approved, and the checklist on: written by a scripted capable writer from the
// case's steps and the request's controls (scripts/outcome/capable-writer.ts), by the library's
// offline writer (`--writer=local`), or off (`--writer=none`). Each run in a fresh browser context,
// `--concurrency` cases at once, `--runs` times each (run 1 of every case, then run 2…).
//
// Each run's status and `verified` are set beside the case's own check, the page showing its done
// text once the goal returned (the check of bench:reach). Printed: a row per run, the totals against
// their targets (runs whose status disagrees with the check: 0; `verified` among the runs whose check
// passed: ≥ 80%; `verified` runs whose check failed: 0), the unproven reasons as the results give
// them, and every false success, false failure, false `verified` and unverified pass with its items.
// Then a JSON summary. One JSON line per run in --out; progress on stderr. The exit code is 0
// whenever the bench ran; a missed target is in the output.
import { resolve } from 'node:path'
import { serveFixtures } from '../test/helpers/fixture-server.ts'
import { launchBrowser } from './common/browser.ts'
import { FlagError, integerFlag, listFlag, parseFlags, stringFlag } from './common/flags.ts'
import { appendJsonLine, startJsonl, temporaryJsonlPath } from './common/jsonl.ts'
import { firstLine } from './common/message.ts'
import { pool } from './common/pool.ts'
import { progress, seconds } from './common/progress.ts'
import { runScript } from './common/run-script.ts'
import { DEFAULT_FIXTURES, loadSuite, type ReachCase } from './reach/load-cases.ts'
import { WRITERS, type Writer } from './outcome/checklist-model.ts'
import type { OutcomeRecord } from './outcome/record.ts'
import { renderFindings, renderRuns, renderTotals } from './outcome/render.ts'
import { runOutcome } from './outcome/run.ts'
import { checkTargets, outcomeTotals } from './outcome/tally.ts'

const USAGE = `Usage: npm run bench:outcome -- [flags]
  --cases=<ids>          only these cases, by the number their page starts with (--cases=01,05)
  --fixtures=<dir>       the folder of the pages and cases.ts (default: test/fixtures/reach of this checkout)
  --runs=<n>             runs of every case (default 1)
  --concurrency=<n>      cases run at once (default 2)
  --writer=<who>         who writes the checklist: capable (default, scripted from the case's steps), local (the library's offline writer) or none (checklist off)
  --out=<file.jsonl>     where the records go, one per run (default: a new file in the temporary directory)`

const NAME = 'bench:outcome'

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['cases', 'fixtures', 'runs', 'concurrency', 'writer', 'out'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const dir = resolve(stringFlag(flags, 'fixtures') ?? DEFAULT_FIXTURES)
  const runs = integerFlag(flags, 'runs', 1)
  const concurrency = integerFlag(flags, 'concurrency', 2)
  const writer = writerFlag(stringFlag(flags, 'writer'))
  const out = stringFlag(flags, 'out') ?? temporaryJsonlPath('bench-outcome')
  const suite = await loadSuite(dir, listFlag(flags, 'cases'))
  const jobs = Array.from({ length: runs }, (_, index) => suite.cases.map((reachCase) => ({ reachCase, run: index + 1 }))).flat()

  const server = await serveFixtures({ root: suite.root })
  startJsonl(out)
  progress(NAME, `${suite.cases.length} case(s) from ${dir} × ${runs} run(s), writer ${writer}; records in ${out}`)
  const started = performance.now()
  const browser = await launchBrowser()
  const records: OutcomeRecord[] = []
  try {
    await pool(jobs, concurrency, async ({ reachCase, run }: { reachCase: ReachCase; run: number }) => {
      const record = await runOutcome(browser, server.url(`${suite.prefix}/${reachCase.page}`), reachCase, writer, run)
      records.push(record)
      appendJsonLine(out, record)
      progress(NAME, `${records.length}/${jobs.length} ${record.case} run ${run}: ${verdict(record)} (${seconds(record.ms)})`)
    })
  } finally {
    await browser.close().catch(() => {})
    await server.close()
  }
  // The pool finishes runs out of order; the report keeps the suite's, run by run.
  const order = (record: OutcomeRecord) => suite.cases.findIndex((reachCase) => reachCase.page === record.page)
  records.sort((a, b) => a.run - b.run || order(a) - order(b))
  const totals = outcomeTotals(records)
  progress(NAME, `done in ${seconds(performance.now() - started)}`)
  const summary = { file: out, fixtures: dir, writer, runs, totals, targets: checkTargets(totals) }
  process.stdout.write(`${renderRuns(records)}\n\n${renderTotals(totals)}\n\n${renderFindings(records)}\n\n${JSON.stringify(summary, null, 2)}\n`)
  return 0
}

function writerFlag(value: string | undefined): Writer {
  if (value === undefined) return 'capable'
  if (!(WRITERS as readonly string[]).includes(value)) throw new FlagError(`--writer must be one of ${WRITERS.join(', ')}, got ${JSON.stringify(value)}.`)
  return value as Writer
}

/** `success, check ✓, verified` or `error unverified_done (…), check ✗`. */
function verdict(record: OutcomeRecord): string {
  const status = record.status === 'success' ? 'success' : `${record.status === 'error' ? `error ${record.failure ?? 'untagged'}` : 'no result'}${record.error ? ` (${firstLine(record.error)})` : ''}`
  return `${status}, check ${record.check ? '✓' : '✗'}${record.verified ? ', verified' : ''}`
}

runScript(NAME, USAGE, main)
