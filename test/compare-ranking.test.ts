import test from 'ava'
import { compareSummaries, rank, summarizeSetup } from '../scripts/compare/ranking.ts'
import type { CompareRecord } from '../scripts/compare/record.ts'
import { median, p90 } from '../scripts/common/stats.ts'

function record(decisions: string, run: number, fields: Partial<CompareRecord> = {}): CompareRecord {
  return {
    decisions,
    text: 'local',
    reasoning: 'none',
    run,
    status: 'done',
    goalsDone: 1,
    path: 'CLICK e1 > DONE',
    decisionRequests: 2,
    staleDecisions: 0,
    actionsWithoutPageChange: 0,
    passed: true,
    probability: 0.9,
    calls: 3,
    usd: 0.01,
    totalMs: 1000,
    modelMs: 500,
    ...fields,
  }
}

/** Two runs per setup, each pair built so that exactly one ranking key separates it from its neighbour. */
function constructedRecords(): CompareRecord[] {
  return [
    // Lower pass rate than every "all passed" setup, same done rate.
    record('passHalf', 1),
    record('passHalf', 2, { passed: false }),
    // Most expensive of the fully agreeing setups at the same p90.
    record('dear', 1, { usd: 0.03, totalMs: 2000 }),
    record('dear', 2, { usd: 0.03, totalMs: 2000 }),
    // Half the runs did not finish: last.
    record('doneHalf', 1),
    record('doneHalf', 2, { status: 'no_change', passed: undefined }),
    // Fastest p90: first, although it costs the most.
    record('fast', 1, { usd: 0.09, totalMs: 500 }),
    record('fast', 2, { usd: 0.09, totalMs: 900 }),
    // Same p90 as `dear`, cheaper.
    record('cheap', 1, { usd: 0.01, totalMs: 2000 }),
    record('cheap', 2, { usd: 0.01, totalMs: 2000 }),
    // Every run passed but the two runs took different paths.
    record('wander', 1, { totalMs: 100 }),
    record('wander', 2, { totalMs: 100, path: 'SCROLL_DOWN > CLICK e1 > DONE' }),
  ]
}

test('setups rank by doneRate, passRate, pathAgreement, p90TotalMs, then medianUsd', (t) => {
  const { ranking } = rank(constructedRecords(), false)
  t.deepEqual(
    ranking.map((summary) => summary.decisions),
    ['fast', 'cheap', 'dear', 'wander', 'passHalf', 'doneHalf'],
  )
  t.is(ranking[3]!.pathAgreement, 0.5)
  t.is(ranking[4]!.passRate, 0.5)
  t.is(ranking[5]!.doneRate, 0.5)
})

test('with checks, verified success ranks ahead of self-reported success', (t) => {
  const records = [
    record('claims', 1, { verified: false }),
    record('claims', 2, { verified: false }),
    record('honest', 1, { verified: true }),
    record('honest', 2, { status: 'no_change', passed: undefined, verified: true }),
  ]
  t.deepEqual(rank(records, false).ranking.map((summary) => summary.decisions), ['claims', 'honest'])
  const verified = rank(records, true).ranking
  t.deepEqual(verified.map((summary) => summary.decisions), ['honest', 'claims'])
  t.is(verified[0]!.verifiedRate, 1)
  t.is(verified[1]!.verifiedRate, 0)
  // Both of `claims`' done runs failed the checks; `honest` claimed one run and it held.
  t.is(verified[1]!.falseSuccesses, 2)
  t.is(verified[0]!.falseSuccesses, 0)
  t.is(rank(records, false).ranking[0]!.falseSuccesses, undefined)
})

test('success the agent verified ranks ahead of success it only claimed', (t) => {
  const records = [
    record('claims', 1, { totalMs: 100 }),
    record('claims', 2, { totalMs: 100 }),
    record('proves', 1, { agentVerified: true, totalMs: 900 }),
    record('proves', 2, { status: 'unverified_done', failure: 'unverified_done', agentVerified: false, passed: undefined, totalMs: 900 }),
  ]
  const { ranking } = rank(records, false)
  t.deepEqual(ranking.map((summary) => summary.decisions), ['proves', 'claims'])
  t.like(ranking[0], { doneRate: 0.5, agentVerifiedRate: 0.5 })
  t.like(ranking[1], { doneRate: 1, agentVerifiedRate: 0 })
})

test('failed runs are counted by failure tag, most frequent first; records without one are not counted', (t) => {
  const summary = summarizeSetup(
    [
      record('s', 1, { status: 'error', failure: 'model_failed', passed: undefined }),
      record('s', 2, { status: 'no_change', failure: 'no_change', passed: undefined }),
      record('s', 3, { status: 'no_change', failure: 'no_change', passed: undefined }),
      // A run that could not start has no tag, and neither has a record from before the checklist.
      record('s', 4, { status: 'error', passed: undefined }),
      record('s', 5),
    ],
    false,
  )
  t.deepEqual(summary.failures, { no_change: 2, model_failed: 1 })
  t.deepEqual(Object.keys(summary.failures!), ['no_change', 'model_failed'])
  t.is(summarizeSetup([record('s', 1)], false).failures, undefined)
  t.is(summarizeSetup([record('s', 1)], false).agentVerifiedRate, 0)
})

test('a missing p90 or cost ranks behind a known one', (t) => {
  const known = summarizeSetup([record('known', 1)], false)
  const unknownTime = summarizeSetup([record('unknownTime', 1, { totalMs: undefined })], false)
  const unknownCost = summarizeSetup([record('unknownCost', 1, { usd: undefined })], false)
  t.true(compareSummaries(known, unknownTime) < 0)
  t.true(compareSummaries(known, unknownCost) < 0)
  t.is(unknownTime.p90TotalMs, undefined)
  t.is(unknownCost.medianUsd, undefined)
})

test('p90 is the slowest of fewer than ten runs and the ninth of ten', (t) => {
  t.is(p90([300, 100, 200]), 300)
  t.is(p90([5, 1, 9, 2, 8, 3, 7, 4, 6]), 9)
  t.is(p90([10, 1, 9, 2, 8, 3, 7, 4, 6, 5]), 9)
  t.is(p90(Array.from({ length: 20 }, (_, i) => i + 1)), 18)
  t.is(p90(Array.from({ length: 70 }, (_, i) => i + 1)), 63)
  t.is(p90([]), undefined)
  t.is(median([3, 1, 2]), 2)
  t.is(median([4, 1, 2, 3]), 2.5)
})

test('p90TotalMs and medians cover finished runs only', (t) => {
  const summary = summarizeSetup(
    [
      record('s', 1, { totalMs: 100, usd: 0.01 }),
      record('s', 2, { totalMs: 300, usd: 0.03 }),
      record('s', 3, { status: 'error', totalMs: 99_999, usd: 5, passed: undefined }),
    ],
    false,
  )
  t.is(summary.p90TotalMs, 300)
  t.is(summary.medianTotalMs, 200)
  t.is(summary.medianUsd, 0.02)
  t.is(summary.totalUsd, 5.04)
  t.is(summary.doneRate, 0.6667)
  t.is(summary.passRate, 0.6667)
  t.is(summary.judgedRuns, 2)
})

test('p90TotalMs is absent when a finished run did not report its time, or none finished', (t) => {
  t.is(summarizeSetup([record('s', 1), record('s', 2, { totalMs: undefined })], false).p90TotalMs, undefined)
  const none = summarizeSetup([record('s', 1, { status: 'error', passed: undefined })], false)
  t.is(none.p90TotalMs, undefined)
  t.is(none.pathAgreement, undefined)
  t.is(none.medianUsd, undefined)
})

test('costs: totalUsd only when every run reported one, reportedUsd and runsWithoutCost otherwise', (t) => {
  const records = [
    record('a', 1, { usd: 0.1 }),
    record('a', 2, { usd: 0.2 }),
    record('b', 1, { usd: undefined, status: 'error', passed: undefined }),
    record('b', 2, { usd: 0.05 }),
  ]
  const result = rank(records, false)
  t.is(result.totalUsd, undefined)
  t.is(result.reportedUsd, 0.35)
  t.is(result.runsWithoutCost, 1)
  const a = result.ranking.find((summary) => summary.decisions === 'a')!
  const b = result.ranking.find((summary) => summary.decisions === 'b')!
  t.is(a.totalUsd, 0.3)
  t.is(b.totalUsd, undefined)
  t.is(b.reportedUsd, 0.05)
  t.is(b.runsWithoutCost, 1)
  t.is(rank(records.slice(0, 2), false).totalUsd, 0.3)
})

test('dataAgreement is the share of extractions that returned the most common data', (t) => {
  const summary = summarizeSetup(
    [
      record('s', 1, { extracted: true, dataHash: 'aa' }),
      record('s', 2, { extracted: true, dataHash: 'aa' }),
      record('s', 3, { extracted: false, extractError: 'no rules' }),
      record('s', 4, { extracted: true, dataHash: 'bb' }),
      record('s', 5),
    ],
    false,
  )
  t.is(summary.dataAgreement, 0.5)
  t.is(summarizeSetup([record('s', 1)], false).dataAgreement, undefined)
})

test('the path agreement counts finished runs on the most common path', (t) => {
  const summary = summarizeSetup(
    [
      record('s', 1, { path: 'CLICK e2 > DONE' }),
      record('s', 2, { path: 'CLICK e1 > DONE' }),
      record('s', 3, { path: 'CLICK e1 > DONE' }),
      record('s', 4, { status: 'error', path: 'CLICK e9', passed: undefined }),
    ],
    false,
  )
  t.is(summary.pathAgreement, 0.6667)
  t.is(summary.commonPath, 'CLICK e1 > DONE')
})
