import test from 'ava'
import type { ChecklistItemResult } from '../types/index.d.ts'
import type { OutcomeRecord } from '../scripts/outcome/record.ts'
import { describeItem, notDone, renderFindings, renderRuns, renderTotals } from '../scripts/outcome/render.ts'
import { checkTargets, outcomeTotals } from '../scripts/outcome/tally.ts'

// bench:outcome's figures on synthetic records: the status against the case's own check, `verified`
// among the runs that truly succeeded, the unproven reasons as the results give them, and the lists.

const done = (control: string): ChecklistItemResult => ({ description: `Click ${control}`, check: { kind: 'activated', control }, status: 'done', evidence: `CLICK "${control}" changed the page (step 1)` })

function record(id: string, fields: Partial<OutcomeRecord>): OutcomeRecord {
  return {
    case: id,
    page: `${id}-page.html`,
    run: 1,
    writer: 'capable',
    status: 'success',
    verified: true,
    check: true,
    checklist: { source: 'model', items: [done('Save')] },
    steps: 1,
    path: 'CLICK "Save" > DONE',
    ms: 900,
    ...fields,
  }
}

const records: OutcomeRecord[] = [
  record('01', {}),
  // Truly succeeded, not verified: a field filled in before the run.
  record('02', {
    verified: false,
    checklist: {
      source: 'model',
      items: [
        { description: 'Type "Lena"', check: { kind: 'field_value', field: 'Name', value: 'Lena' }, status: 'judgment', unproven: 'met_at_start', evidence: 'Already so at the start: Name holds "Lena" (step 0)' },
        done('Save'),
      ],
    },
  }),
  // A false failure: the page shows the task done, the agent said it was not.
  record('03', {
    status: 'error',
    failure: 'unverified_done',
    error: 'The model chose DONE again while checklist items were not verified on the page: 1. Type "x" into Password.\nsecond line',
    verified: false,
    checklist: { source: 'model', items: [{ description: 'Type "x"', check: { kind: 'field_value', field: 'Password', value: 'x' }, status: 'open', evidence: 'Password holds "•••" (step 2)' }] },
  }),
  // A false success, verified all the same; an unproven reason the bench has never heard of.
  record('04', {
    check: false,
    checklist: {
      source: 'model',
      items: [done('Save'), { description: 'Tab', check: { kind: 'activated', control: 'Tab' }, status: 'judgment', unproven: 'gone' as ChecklistItemResult['unproven'] }],
    },
  }),
  // Failed and the page agrees: no disagreement. No checklist: the reply did not validate.
  record('05', { status: 'error', failure: 'no_change', error: 'Nothing changed', verified: false, check: false, checklist: { source: 'none', items: [], note: 'The checklist reply did not validate: items: must hold at most 8 items' } }),
  // No result: apart from every agreement figure.
  record('06', { status: 'no_result', error: 'the goal took more than 22000 ms', verified: false, check: false, checklist: undefined, path: undefined, steps: 0 }),
  record('01', { run: 2, verified: false, checklist: { source: 'model', items: [done('Save'), { description: 'Hover the menu', check: { kind: 'judgment' }, status: 'judgment' }] } }),
]

test('the totals: disagreements, verified among the passed runs, false verified, unproven reasons read from the results', (t) => {
  const totals = outcomeTotals(records)
  t.deepEqual(totals, {
    runs: 7,
    noResult: 1,
    falseSuccesses: 1,
    falseFailures: 1,
    disagreements: 2,
    passed: 4,
    verifiedPassed: 1,
    verifiedShare: 0.25,
    falseVerified: 1,
    unproven: { gone: 1, met_at_start: 1 },
    failures: { no_change: 1, unverified_done: 1 },
  })
  t.deepEqual(
    checkTargets(totals).map((check) => [check.value, check.target, check.met]),
    [
      ['2 (1 false successes, 1 false failures)', '0', false],
      ['25.0% (1 of 4)', '≥ 80%', false],
      ['1', '0', false],
    ],
  )
  const met = outcomeTotals([record('01', {}), record('02', { status: 'error', failure: 'no_change', verified: false, check: false })])
  t.deepEqual(checkTargets(met).map((check) => check.met), [true, true, true])
  t.is(outcomeTotals([]).verifiedShare, undefined)
  t.is(checkTargets(outcomeTotals([]))[1]!.met, undefined)
})

test('an item in one line, and the items not done with why; none for the checklist off, the note when there is none', (t) => {
  t.is(describeItem({ description: 'x', check: { kind: 'field_value', field: 'Name', value: 'Lena' } }), 'field_value(field="Name", value="Lena")')
  t.is(describeItem({ description: 'Hover the menu', check: { kind: 'judgment' } }), 'judgment "Hover the menu"')
  t.deepEqual(notDone(records[1]!), ['field_value(field="Name", value="Lena"): judgment (met_at_start) – Already so at the start: Name holds "Lena" (step 0)'])
  t.deepEqual(notDone(records[4]!), ['no checklist: The checklist reply did not validate: items: must hold at most 8 items'])
  t.deepEqual(notDone(record('07', { writer: 'none', verified: false, checklist: { source: 'none', items: [] } })), [])
  t.deepEqual(notDone(records[0]!), [])
})

test('the table has a row per run, the totals name each target met or missed', (t) => {
  const table = renderRuns(records).split('\n')
  t.is(table[0], '| Case | Run | Check | Status | Verified | Items not done (why) |')
  t.is(table[2], '| 01 | 1 | ✓ | success | ✓ | – |')
  t.is(table[4], '| 03 | 1 | ✓ | error unverified_done | ✗ | field_value(field="Password", value="x"): open – Password holds "•••" (step 2) |')
  t.is(table[7], '| 06 | 1 | ✗ | no result | ✗ | – |')
  t.is(table[8], '| 01 | 2 | ✓ | success | ✗ | judgment "Hover the menu": judgment |')
  const totals = renderTotals(outcomeTotals(records))
  t.regex(totals, /^- Runs: 7 \(1 without a result, listed below\); check passed: 4$/m)
  t.regex(totals, /^- Runs whose status disagrees with the check: 2 \(1 false successes, 1 false failures\) \(target 0\): MISSED$/m)
  t.regex(totals, /^- `verified` among the runs whose check passed: 25\.0% \(1 of 4\) \(target ≥ 80%\): MISSED$/m)
  t.regex(totals, /^- `verified` runs whose check failed: 1 \(target 0\): MISSED$/m)
  t.regex(totals, /^- Items unproven, by reason: gone 1, met_at_start 1$/m)
  t.regex(totals, /^- Failure tags: no_change 1, unverified_done 1$/m)
})

test('the findings list every false success, false failure, false verified, unverified pass and run without a result, with their items', (t) => {
  const findings = renderFindings(records)
  const section = (title: string) => findings.slice(findings.indexOf(`### ${title}`)).split('\n\n')[0]!
  t.is(
    section('False successes'),
    [
      '### False successes: status success, check failed (1)',
      '- 04 run 1 (04-page.html): the page does not show the done text [CLICK "Save" > DONE]',
      '  - activated(control="Tab"): judgment (gone)',
    ].join('\n'),
  )
  t.is(
    section('False failures'),
    [
      '### False failures: status error, check passed (1)',
      '- 03 run 1 (03-page.html): unverified_done: The model chose DONE again while checklist items were not verified on the page: 1. Type "x" into Password. [CLICK "Save" > DONE]',
      '  - field_value(field="Password", value="x"): open – Password holds "•••" (step 2)',
    ].join('\n'),
  )
  t.is(section('`verified` although'), '### `verified` although the check failed (1)\n- 04 run 1 (04-page.html): success [CLICK "Save" > DONE]')
  const unverified = section('Check passed, not verified')
  t.regex(unverified, /\(3\)\n- 02 run 1 .*: success\n {2}- field_value\(field="Name", value="Lena"\): judgment \(met_at_start\)/)
  t.regex(unverified, /- 03 run 1 .*: error unverified_done\n/)
  t.regex(unverified, /- 01 run 2 .*: success\n {2}- judgment "Hover the menu": judgment$/)
  t.is(section('No result'), '### No result (1)\n- 06 run 1 (06-page.html): the goal took more than 22000 ms')
  t.is(renderFindings([record('01', {})]).match(/None\./g)?.length, 5)
})
