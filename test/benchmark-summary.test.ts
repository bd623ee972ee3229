import test from 'ava'
import { agreement, describeLiveRuns, liveReports, renderTable, summarizeReplay, type ReplayResult } from '../scripts/benchmark/summary.ts'
import { createPacer, delayBeforeNext } from '../scripts/benchmark/pace.ts'

function result(decider: string, request: number, fields: Partial<ReplayResult>): ReplayResult {
  return { decider, kind: 'decision', request, ms: 100, answered: true, ...fields }
}

test('agreement compares operation, then operation and target, with the live answer', (t) => {
  t.deepEqual(agreement({ operation: 'CLICK', target: 'e1' }, { operation: 'CLICK', target: 'e1' }), { sameOperation: true, sameOperationAndTarget: true })
  t.deepEqual(agreement({ operation: 'CLICK', target: 'e2' }, { operation: 'CLICK', target: 'e1' }), { sameOperation: true, sameOperationAndTarget: false })
  t.deepEqual(agreement({ operation: 'DONE' }, { operation: 'DONE' }), { sameOperation: true, sameOperationAndTarget: true })
  t.deepEqual(agreement({ operation: 'WAIT' }, { operation: 'CLICK', target: 'e1' }), { sameOperation: false, sameOperationAndTarget: false })
  t.deepEqual(agreement({ operation: 'DONE' }, undefined), {})
})

test('the summary counts answers and times only the answered requests', (t) => {
  const results = [
    result('local', 1, { ms: 10, sameOperation: true, sameOperationAndTarget: true }),
    result('local', 2, { ms: 30, sameOperation: true, sameOperationAndTarget: false }),
    result('local', 3, { ms: 20, sameOperation: false, sameOperationAndTarget: false }),
    result('slow/model', 1, { kind: 'language', ms: 2000, answered: false, error: 'rate limited' }),
    result('slow/model', 2, { kind: 'language', ms: 900, sameOperation: true, sameOperationAndTarget: true }),
    result('slow/model', 3, { kind: 'language', ms: 700, answered: false, error: 'invalid answer' }),
  ]
  const [local, slow] = summarizeReplay(results)
  t.deepEqual(local, { decider: 'local', kind: 'decision', requests: 3, answered: 3, medianMs: 20, p90Ms: 30, sameOperation: 2, sameOperationAndTarget: 1 })
  t.deepEqual(slow, { decider: 'slow/model', kind: 'language', requests: 3, answered: 1, medianMs: 900, p90Ms: 900, sameOperation: 1, sameOperationAndTarget: 1 })
  const table = renderTable([local!, slow!], 'local')
  t.is(table.split('\n').length, 4)
  t.true(table.includes('| `local` | 3/3 | 20 ms | 30 ms | 2 | 1 |'))
  t.true(table.includes('| `slow/model` (text model) | 1/3 | 900 ms | 900 ms | 1 | 1 |'))
})

test('a decider that answered nothing has no latency', (t) => {
  const [summary] = summarizeReplay([result('x', 1, { answered: false, error: 'down' })])
  t.is(summary!.medianMs, undefined)
  t.true(renderTable([summary!], 'local').includes('| 0/1 | n/a | n/a |'))
})

test('pacing keeps request starts 60000 / perMinute ms apart', async (t) => {
  t.is(delayBeforeNext(undefined, 5_000, 5), 0)
  t.is(delayBeforeNext(1_000, 5_000, 5), 8_000)
  t.is(delayBeforeNext(1_000, 20_000, 5), 0)
  t.is(delayBeforeNext(1_000, 1_000, Infinity), 0)
  let now = 0
  const sleeps: number[] = []
  const wait = createPacer(6, { now: () => now, sleep: async (ms) => { sleeps.push(ms); now += ms } })
  await wait()
  now += 1_000
  await wait()
  now += 12_000
  await wait()
  t.deepEqual(sleeps, [9_000])
})

test('the live runs behind a recording: successes beside verified ones, once per run, none told for an older recording', (t) => {
  const proven = { status: 'success', verified: true } as const
  const claimed = { status: 'success', verified: false } as const
  const stopped = { status: 'error', verified: false, failure: 'no_change' } as const
  t.is(
    describeLiveRuns([
      { run: 1, model: 'local', outcome: proven },
      { run: 1, model: 'local', outcome: proven },
      { run: 2, model: 'local', outcome: claimed },
      { run: 3, model: 'local', outcome: stopped },
    ]),
    '3 live runs of local: 2 successes, 1 verified',
  )
  t.is(describeLiveRuns([{ run: 1, model: 'local', outcome: proven }]), '1 live run of local: 1 success, 1 verified')
  t.is(describeLiveRuns([{ run: 1, model: 'local' }, { run: 2, model: 'local', outcome: proven }]), '2 live runs of local')
})

test('the reports of the live runs behind a recording, once per run in run order; none without --record', (t) => {
  const outcome = (report?: string) => ({ status: 'success', verified: false, ...(report ? { report } : {}) }) as const
  t.deepEqual(
    liveReports([
      { run: 2, outcome: outcome('/r/b/report.html') },
      { run: 1, outcome: outcome('/r/a/report.html') },
      { run: 1, outcome: outcome('/r/a/report.html') },
      { run: 3, outcome: outcome() },
      { run: 4 },
    ]),
    [
      { run: 1, report: '/r/a/report.html' },
      { run: 2, report: '/r/b/report.html' },
    ],
  )
  t.deepEqual(liveReports([{ run: 1, outcome: outcome() }]), [])
})
