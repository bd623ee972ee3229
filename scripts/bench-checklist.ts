// npm run bench:checklist -- [--runs=3] [--tasks=<names>] [--out=file.jsonl]
// Runs a suite of small tasks on the fixture sites and the demo shop with the offline models, each
// task `--runs` times with the checklist off and on, each run in a fresh browser context. The harness
// checks every task's verify block on the final page, whatever the agent reported, and prints per arm:
// runs, self-reported successes, verified successes, false successes, the agent's own `verified` and
// the failure tags, as Markdown tables and a JSON summary. One JSON line per run; progress on stderr.
import { serveFixtures } from '../test/helpers/fixture-server.ts'
import { launchBrowser } from './common/browser.ts'
import { integerFlag, listFlag, parseFlags, stringFlag } from './common/flags.ts'
import { appendJsonLine, startJsonl, temporaryJsonlPath } from './common/jsonl.ts'
import { firstLine } from './common/message.ts'
import { progress } from './common/progress.ts'
import { openSite } from './common/site.ts'
import { renderArmTable, renderTaskTable } from './checklist/render.ts'
import { ARMS, type ChecklistRunRecord } from './checklist/record.ts'
import { runTask } from './checklist/run.ts'
import { summarizeArms, summarizeTasks, UNTAGGED } from './checklist/tally.ts'
import { pickTasks } from './checklist/tasks.ts'
import { runScript } from './common/run-script.ts'

const USAGE = `Usage: npm run bench:checklist -- [flags]
  --runs=<n>             runs of every task in each arm (default 3)
  --tasks=<names>        comma-separated task names (default: the whole suite of scripts/checklist/tasks.ts)
  --out=<file.jsonl>     where the records go, one per run (default: a new file in the temporary directory)`

async function main(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { strings: ['runs', 'tasks', 'out'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  const runs = integerFlag(flags, 'runs', 3)
  const tasks = pickTasks(listFlag(flags, 'tasks'))
  const out = stringFlag(flags, 'out') ?? temporaryJsonlPath('bench-checklist')

  const fixtures = await serveFixtures()
  const demo = await openSite('demo')
  startJsonl(out)
  const total = runs * tasks.length * ARMS.length
  progress('bench:checklist', `${tasks.length} task(s) × ${runs} run(s) × ${ARMS.length} arms; records in ${out}`)
  const browser = await launchBrowser()
  const records: ChecklistRunRecord[] = []
  try {
    // Interleaved (run 1 of every task in both arms, then run 2…) so that a machine that slows down
    // part-way weighs on both arms alike.
    for (let run = 1; run <= runs; run++) {
      for (const task of tasks) {
        for (const arm of ARMS) {
          const record = await runTask(browser, { fixtures: fixtures.origin, demo: demo.url }, task, arm, run)
          records.push(record)
          appendJsonLine(out, record)
          progress('bench:checklist', `${records.length}/${total} ${task.name} checklist ${arm} run ${run}: ${verdict(record)}`)
        }
      }
    }
  } finally {
    await browser.close().catch(() => {})
    await demo.close()
    await fixtures.close()
  }
  const arms = summarizeArms(records)
  const perTask = summarizeTasks(records)
  process.stdout.write(`${renderArmTable(arms)}\n\n${renderTaskTable(perTask)}\n\n${JSON.stringify({ file: out, runs, arms, tasks: perTask }, null, 2)}\n`)
  return 0
}

/** `success, agent verified, page NOT verified` or `error no_change (…), page verified`. */
function verdict(record: ChecklistRunRecord): string {
  const agent =
    record.status === 'success'
      ? `success${record.agentVerified ? ', agent verified' : ''}`
      : `error ${record.failure ?? UNTAGGED}${record.error ? ` (${firstLine(record.error)})` : ''}`
  return `${agent}, page ${record.verified ? 'verified' : 'NOT verified'} in ${record.goalMs} ms`
}

runScript('bench:checklist', USAGE, main)
