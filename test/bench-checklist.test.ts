import test from 'ava'
import { renderArmTable, renderTaskTable } from '../scripts/checklist/render.ts'
import type { ChecklistRunRecord } from '../scripts/checklist/record.ts'
import { count, summarizeArms, summarizeTasks } from '../scripts/checklist/tally.ts'
import { pickTasks, TASKS } from '../scripts/checklist/tasks.ts'
import { checkVerify } from '../scripts/checklist/verify-block.ts'
import { FlagError } from '../scripts/common/flags.ts'

function record(task: string, arm: 'off' | 'on', fields: Partial<ChecklistRunRecord>): ChecklistRunRecord {
  return {
    task,
    arm,
    run: 1,
    status: 'success',
    agentVerified: false,
    verified: true,
    finalUrl: 'http://127.0.0.1/',
    steps: 2,
    decisions: 3,
    goalMs: 100,
    ...fields,
  }
}

test('the verify block: every given check must hold on the final page, and each failed one is named', (t) => {
  const page = { url: 'http://127.0.0.1:1/sites/search/results.html?q=dune', text: 'Results for "dune"\nDune\nChildren of Dune' }
  t.deepEqual(checkVerify(page, { url_contains: 'q=dune', text_contains: 'Children of Dune', url_excludes: 'q=emma', text_excludes: 'Emma' }), {
    passed: true,
    failed: [],
  })
  t.deepEqual(checkVerify(page, { url_contains: 'q=emma', url_excludes: 'results', text_contains: 'Emma', text_excludes: 'Dune' }), {
    passed: false,
    failed: ['url contains "q=emma"', 'url excludes "results"', 'text contains "Emma"', 'text excludes "Dune"'],
  })
  // Exact substrings: case counts, and the URL is not searched for text nor the text for the URL.
  t.false(checkVerify(page, { text_contains: 'children of dune' }).passed)
  t.false(checkVerify(page, { text_contains: 'results.html' }).passed)
  t.false(checkVerify(page, { url_contains: 'Children' }).passed)
})

test('every task of the suite has a unique name and at least one check; --tasks picks in suite order and refuses unknown names', (t) => {
  const names = TASKS.map((task) => task.name)
  t.is(new Set(names).size, names.length)
  t.true(TASKS.length >= 10 && TASKS.length <= 20)
  for (const task of TASKS) t.true(Object.values(task.verify).some((check) => typeof check === 'string' && check !== ''), task.name)
  t.deepEqual(pickTasks([]).map((task) => task.name), names)
  t.deepEqual(pickTasks(['demo-tent', 'search-dune']).map((task) => task.name), ['search-dune', 'demo-tent'])
  const error = t.throws(() => pickTasks(['search-dune', 'search-dnue']), { instanceOf: FlagError })
  t.regex(error.message, /Unknown task "search-dnue" in --tasks\. Known tasks: search-dune, /)
})

test('counts: the page overrides the agent in both directions, false successes are claimed runs the page does not back', (t) => {
  const counts = count([
    record('a', 'on', { status: 'success', agentVerified: true, verified: true }),
    // Claimed, not backed by the page: a false success.
    record('a', 'on', { status: 'success', verified: false }),
    // Not claimed, yet the page shows the task done: a verified success all the same.
    record('a', 'on', { status: 'error', failure: 'unverified_done', verified: true }),
    record('a', 'on', { status: 'error', failure: 'no_change', verified: false }),
    record('a', 'on', { status: 'error', failure: 'unverified_done', verified: false }),
    record('a', 'on', { status: 'error', verified: false }),
  ])
  t.deepEqual(counts, {
    runs: 6,
    selfReported: 2,
    verified: 2,
    falseSuccesses: 1,
    agentVerified: 1,
    failures: { unverified_done: 2, no_change: 1, untagged: 1 },
  })
  t.deepEqual(Object.keys(counts.failures), ['unverified_done', 'no_change', 'untagged'])
})

test('arms come off then on with their medians; tasks keep their first order with both arms', (t) => {
  const records = [
    record('b', 'on', { goalMs: 300, decisions: 5, agentVerified: true }),
    record('b', 'off', { goalMs: 100, decisions: 2, verified: false }),
    record('a', 'off', { goalMs: 200, decisions: 4, status: 'error', failure: 'step_budget', verified: false }),
    record('a', 'on', { goalMs: 500, decisions: 7, status: 'error', failure: 'unverified_done', verified: false }),
  ]
  const arms = summarizeArms(records)
  t.deepEqual(arms, [
    { arm: 'off', runs: 2, selfReported: 1, verified: 0, falseSuccesses: 1, agentVerified: 0, failures: { step_budget: 1 }, medianGoalMs: 150, medianDecisions: 3 },
    { arm: 'on', runs: 2, selfReported: 1, verified: 1, falseSuccesses: 0, agentVerified: 1, failures: { unverified_done: 1 }, medianGoalMs: 400, medianDecisions: 6 },
  ])
  t.deepEqual(summarizeArms(records.filter((item) => item.arm === 'on')).map((arm) => arm.arm), ['on'])
  const tasks = summarizeTasks(records)
  t.deepEqual(tasks.map((task) => task.task), ['b', 'a'])
  t.like(tasks[1]!.arms, { off: { runs: 1, selfReported: 0, failures: { step_budget: 1 } }, on: { runs: 1, failures: { unverified_done: 1 } } })

  const armTable = renderArmTable(arms).split('\n')
  t.is(armTable[0], '| Arm | Runs | Self-reported successes | Verified successes | False successes | Agent `verified` | Median goal | Failure tags |')
  t.is(armTable[2], '| `checklist: false` | 2 | 1 | 0 | 1 | 0 | 150 ms | step_budget 1 |')
  t.is(armTable[3], '| `checklist: true` | 2 | 1 | 1 | 0 | 1 | 400 ms | unverified_done 1 |')
  const taskTable = renderTaskTable(tasks).split('\n')
  t.is(taskTable[2], '| `b` | 1 / 0 / 1 of 1 | 1 / 1 / 0 of 1 | none |')
  t.is(taskTable[3], '| `a` | 0 / 0 / 0 of 1 | 0 / 0 / 0 of 1 | unverified_done 1 |')
})
