// npm run bench:reach -- [--cases=01,05] [--fixtures=<dir>] [--json=<file>] [--concurrency=2]
// What the collector offers a decision model, measured against ground truth: the fixture pages of
// test/fixtures/reach (NN-slug.html) and their cases.ts, each page listing the controls a person can
// use in the first view, the names its fields must carry, elements that only look like controls,
// controls nested in one another, states a person reads, and a task. Pages are served from the
// folder above the fixtures on 127.0.0.1 and each is opened in a fresh browser context at 1280×800.
//
// Per case (scripts/reach/):
// - inspect.ts: observe() five times, 50 ms apart, each passed the previous snapshot; the median
//   time, and the size of the decision request (`JSON.stringify({ state, questions })` of
//   buildDecisionRequest). On the last observation: recall (recall.ts: a listed control is offered
//   when an element of its own is named, case-folded with whitespace collapsed, exactly like it or
//   holding its text as whole words, or when it is the label of an option of an offered select or
//   listbox), duplicates (an offered node inside or around an equally named one, a `nested` text
//   offered again), field names, fields with no name, inert elements offered, and states.
// - respond.ts: precision. Each offered element (the first 60 of a page) on a fresh load of the
//   page, found again by its index in a new observation and used once: a field gets a click and the
//   key "1", a native select counts as responding, anything else is clicked at its centre and
//   watched 300 ms for a response (page-watch.ts says what counts).
// - task.ts, play.ts, oracle.ts, oracle-plan.ts: agent.goal on a fresh load (with the case's secrets,
//   if it has any) with an oracle that plays the case's steps (click, type or copy from the page, select,
//   submit, press a key, hover, drag, scroll a container to its end), picking targets by their text,
//   and answers BLOCKED when the request does not offer what a step needs. Completed when the goal
//   succeeded and the page shows the case's done text.
//
// The observations run first, one case at a time, so their times are not skewed by other work; the
// probes and tasks then run `--concurrency` cases at once (most of a probe is waiting).
//
// Only APIs the library had before this bench are used (observe, buildDecisionRequest, agent.goal),
// and fields a newer collector adds are read if present: the same script measures an older checkout
// on the newest pages, e.g. copied into a worktree of HEAD (whose package.json may not name it):
//   node --experimental-strip-types scripts/bench-reach.ts --fixtures=<new>/test/fixtures/reach --json=before.json
// Printed: a table per case, the totals against their targets, and every miss by case (stdout);
// progress on stderr. The exit code is 0 whenever the bench ran; a missed target is in the output.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Browser } from 'puppeteer-core'
import { launchBrowser } from './common/browser.ts'
import { integerFlag, listFlag, parseFlags, stringFlag } from './common/flags.ts'
import { pool } from './common/pool.ts'
import { firstLine, messageOf } from './common/message.ts'
import { progress, seconds } from './common/progress.ts'
import { runScript } from './common/run-script.ts'
import { inspectCase, type Inspection } from './reach/inspect.ts'
import { caseId, DEFAULT_FIXTURES, loadSuite, type ReachCase } from './reach/load-cases.ts'
import { renderCases, renderMisses, renderTotals } from './reach/render.ts'
import { probeCase, type Precision } from './reach/respond.ts'
import { serveFixtures } from '../test/helpers/fixture-server.ts'
import { checkTargets, clicked, responding, totals, type CaseRecord } from './reach/tally.ts'
import { runTask, type TaskResult } from './reach/task.ts'

const USAGE = `Usage: npm run bench:reach -- [flags]
  --cases=<ids>          only these cases, by the number their page starts with (--cases=01,05)
  --fixtures=<dir>       the folder of the pages and cases.ts (default: test/fixtures/reach of this checkout)
  --json=<file>          also write every figure as JSON, to compare two runs
  --concurrency=<n>      cases probed at once after the observations (default 2)`

const NAME = 'bench:reach'

interface Inspected {
  reachCase: ReachCase
  url: string
  inspection: Inspection
  ms: number
}

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['cases', 'fixtures', 'json', 'concurrency'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const dir = resolve(stringFlag(flags, 'fixtures') ?? DEFAULT_FIXTURES)
  const json = stringFlag(flags, 'json')
  const concurrency = integerFlag(flags, 'concurrency', 2)
  const suite = await loadSuite(dir, listFlag(flags, 'cases'))
  const server = await serveFixtures({ root: suite.root })
  progress(NAME, `${suite.cases.length} case(s) from ${dir} on ${server.origin}`)
  const started = performance.now()
  const browser = await launchBrowser()
  const records: CaseRecord[] = []
  try {
    const inspected: Inspected[] = []
    for (const [index, reachCase] of suite.cases.entries()) {
      const url = server.url(`${suite.prefix}/${reachCase.page}`)
      const caseStarted = performance.now()
      const inspection = await inspectCase(browser, url, reachCase)
      inspected.push({ reachCase, url, inspection, ms: performance.now() - caseStarted })
      const what = inspection.error
        ? `FAILED ${firstLine(inspection.error)}`
        : `${inspection.offered.length} offered, recall ${inspection.recall.matched}/${inspection.recall.listed}, ${inspection.medianObserveMs} ms`
      progress(NAME, `observed ${index + 1}/${suite.cases.length} ${reachCase.page}: ${what}`)
    }
    let done = 0
    await pool(inspected, concurrency, async (item) => {
      const record = await useCase(browser, item)
      records.push(record)
      done += 1
      const task = record.task.completed ? 'task ✓' : `task ✗ ${record.task.reason ?? ''}`
      const answered = `${responding(record.precision)}/${clicked(record.precision)} respond`
      progress(NAME, `probed ${done}/${inspected.length} ${record.page}: ${answered}, ${task} (${seconds(record.ms)})`)
    })
  } finally {
    await browser.close().catch(() => {})
    await server.close()
  }
  // The pool finishes cases out of order; the report keeps the suite's.
  records.sort((a, b) => suite.cases.findIndex((c) => c.page === a.page) - suite.cases.findIndex((c) => c.page === b.page))
  const total = totals(records)
  progress(NAME, `done in ${seconds(performance.now() - started)}`)
  process.stdout.write(`${renderCases(records)}\n\n${renderTotals(total)}\n\n${renderMisses(records)}\n`)
  if (json) {
    mkdirSync(dirname(resolve(json)), { recursive: true })
    writeFileSync(json, `${JSON.stringify({ fixtures: dir, totals: total, targets: checkTargets(total), cases: records }, null, 2)}\n`)
    progress(NAME, `figures written to ${json}`)
  }
  return 0
}

/** The precision probes and the task of one inspected case; whatever throws is recorded, not raised. */
async function useCase(browser: Browser, item: Inspected): Promise<CaseRecord> {
  const started = performance.now()
  const { reachCase, url, inspection } = item
  const precision = await probeCase(browser, url, inspection.offered).catch(
    (error: unknown): Precision => ({ probes: [], skipped: inspection.offered.length, error: messageOf(error) }),
  )
  const task = await runTask(browser, url, reachCase).catch((error: unknown): TaskResult => ({ completed: false, reason: firstLine(messageOf(error)), ms: 0 }))
  return {
    id: caseId(reachCase),
    page: reachCase.page,
    pattern: reachCase.pattern,
    inspection,
    precision,
    task,
    ms: Math.round(item.ms + performance.now() - started),
  }
}

runScript(NAME, USAGE, main)
