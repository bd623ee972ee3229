import test from 'ava'
import { execFile } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readJsonLines } from '../scripts/common/jsonl.ts'
import type { OutcomeRecord } from '../scripts/outcome/record.ts'

// npm run bench:outcome end to end on a few reach cases, in its own Chrome: one record per run, the
// checklist written by the chosen writer, and the printed totals agreeing with the records.

const SCRIPT = fileURLToPath(new URL('../scripts/bench-outcome.ts', import.meta.url))

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', SCRIPT, ...args], { timeout: 100_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

const outFile = () => join(mkdtempSync(join(tmpdir(), 'bench-outcome-test-')), 'runs.jsonl')

test('bench:outcome plays three cases with the capable writer: a record per run, the checklist it wrote, totals that agree', async (t) => {
  t.timeout(110_000)
  const out = outFile()
  const { code, stdout, stderr } = await runScript(['--cases=44,05,40', `--out=${out}`])
  t.is(code, 0, stderr)
  const records = readJsonLines<OutcomeRecord>(out)
  t.deepEqual(records.map((record) => record.case).sort(), ['05', '40', '44'])
  for (const record of records) {
    t.like(record, { run: 1, writer: 'capable', check: true }, record.case)
    t.is(record.checklist?.source, 'model', record.case)
    t.is(record.status === 'success', record.failure === undefined, record.case)
    t.true(record.steps > 0 && record.ms > 0, record.case)
  }
  const byCase = new Map(records.map((record) => [record.case, record]))
  // The hover of case 40 is a step no check can express: a judgment item.
  t.true(byCase.get('40')!.checklist!.items.some((item) => item.check.kind === 'judgment' && item.description === 'Point at Shop'))
  // Case 44 signs in with the caller's secrets: the writer names the placeholders, as the goal does.
  t.true(byCase.get('44')!.checklist!.items.some((item) => item.check.kind === 'field_value' && item.check.value === '%password%'))

  // Printed in suite order, and the JSON summary agrees with the records.
  t.deepEqual([...stdout.matchAll(/^\| (\d\d) \| 1 \|/gm)].map((match) => match[1]), ['05', '40', '44'])
  const summary = JSON.parse(stdout.slice(stdout.lastIndexOf('\n{\n') + 1))
  t.is(summary.file, out)
  t.like(summary.totals, {
    runs: 3,
    passed: 3,
    verifiedPassed: records.filter((record) => record.verified).length,
    falseFailures: records.filter((record) => record.status === 'error').length,
    falseSuccesses: 0,
  })
  t.regex(stdout, /^- `verified` among the runs whose check passed: .* \(target ≥ 80%\): (met|MISSED)$/m)
  t.regex(stderr, /\[bench:outcome\] 3\/3 \d\d run 1: .*check ✓/)
})

test('bench:outcome with the checklist off, and with the library\'s offline writer', async (t) => {
  t.timeout(110_000)
  const off = outFile()
  t.is((await runScript(['--cases=05', '--writer=none', `--out=${off}`])).code, 0)
  t.like(readJsonLines<OutcomeRecord>(off)[0], { writer: 'none', verified: false, checklist: { source: 'none', items: [] } })
  const local = outFile()
  t.is((await runScript(['--cases=05', '--writer=local', `--out=${local}`])).code, 0)
  const [record] = readJsonLines<OutcomeRecord>(local)
  t.is(record?.writer, 'local')
  t.is(record?.checklist?.source, 'model')
  t.true((record?.checklist?.items.length ?? 0) > 0)
})

test('bench:outcome refuses an unknown writer before it starts Chrome', async (t) => {
  const { code, stderr } = await runScript(['--writer=gpt'])
  t.is(code, 2)
  t.regex(stderr, /--writer must be one of capable, local, none, got "gpt"/)
  t.notRegex(stderr, /\[bench:outcome\]/)
})
