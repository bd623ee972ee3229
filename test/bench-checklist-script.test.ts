import test from 'ava'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ChecklistRunRecord } from '../scripts/checklist/record.ts'
import { readFinalPage, verifyFinalPage } from '../scripts/checklist/verify-block.ts'
import { useChrome } from './helpers/chrome.ts'
import { serveFixtures, type FixtureServer } from './helpers/fixture-server.ts'

const SCRIPT = fileURLToPath(new URL('../scripts/bench-checklist.ts', import.meta.url))

const chrome = useChrome(test)
let server: FixtureServer
test.before(async () => {
  server = await serveFixtures()
})
test.after.always(async () => {
  await server?.close()
})

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', SCRIPT, ...args], { timeout: 90_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

test('bench:checklist runs two tasks once in each arm: one record per run, the tables and the JSON summary agree with them', async (t) => {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-checklist-test-')), 'runs.jsonl')
  const { code, stdout, stderr } = await runScript(['--tasks=search-dune,demo-trail-shoes', '--runs=1', `--out=${out}`])
  t.is(code, 0, stderr)

  const records = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as ChecklistRunRecord)
  // Interleaved: each task in both arms before the next task.
  t.deepEqual(records.map((record) => [record.task, record.arm, record.run]), [
    ['search-dune', 'off', 1],
    ['search-dune', 'on', 1],
    ['demo-trail-shoes', 'off', 1],
    ['demo-trail-shoes', 'on', 1],
  ])
  for (const record of records) {
    t.is(record.verified, record.verifyFailed === undefined, record.task)
    t.is(record.status === 'success', record.failure === undefined, record.task)
    t.true(record.decisions > 0)
    t.regex(record.finalUrl, /^http:\/\/127\.0\.0\.1:\d+\//)
  }
  for (const record of records.filter((item) => item.arm === 'off')) {
    t.false(record.agentVerified)
    t.is(record.checklist, undefined)
  }
  for (const record of records.filter((item) => item.arm === 'on')) t.is(record.checklist?.source, 'model')

  const json = JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1))
  t.is(json.file, out)
  t.deepEqual(json.tasks.map((task: { task: string }) => task.task), ['search-dune', 'demo-trail-shoes'])
  for (const arm of json.arms) {
    const mine = records.filter((record) => record.arm === arm.arm)
    t.like(arm, {
      runs: 2,
      selfReported: mine.filter((record) => record.status === 'success').length,
      verified: mine.filter((record) => record.verified).length,
      falseSuccesses: mine.filter((record) => record.status === 'success' && !record.verified).length,
      agentVerified: mine.filter((record) => record.agentVerified).length,
    })
  }
  t.regex(stdout, /^\| Arm \| Runs \| Self-reported successes \| Verified successes \| False successes \| Agent `verified` \| Median goal \| Failure tags \|$/m)
  t.regex(stdout, /^\| `checklist: false` \| 2 \| \d \| \d \| \d \| 0 \| \d+ ms \| .+ \|$/m)
  t.regex(stdout, /^\| `search-dune` \| \d \/ \d \/ \d of 1 \| \d \/ \d \/ \d of 1 \| .+ \|$/m)
  t.regex(stderr, /\[bench:checklist\] 4\/4 demo-trail-shoes checklist on run 1: .*page (NOT )?verified in \d+ ms/)
})

test('bench:checklist refuses an unknown task before it starts Chrome', async (t) => {
  const { code, stderr } = await runScript(['--tasks=search-dnue'])
  t.is(code, 2)
  t.regex(stderr, /Unknown task "search-dnue" in --tasks/)
  t.notRegex(stderr, /\[bench:checklist\]/)
})

test('the harness reads the text of open shadow roots, not their styles, and a closed page fails verification saying why', async (t) => {
  const page = await chrome.page(t)
  await page.goto(server.url('sites/shadow/index.html'))
  const final = await readFinalPage(page)
  t.is(final.url, server.url('sites/shadow/index.html'))
  t.true(final.text.startsWith('Newsletter'))
  t.true(final.text.includes('Not subscribed yet.'))
  t.false(final.text.includes('border'))
  await page.close()
  const closed = await verifyFinalPage(page, { text_contains: 'Newsletter' })
  t.false(closed.passed)
  t.regex(closed.failed[0]!, /^could not read the final page: /)
})
