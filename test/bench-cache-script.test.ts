import test from 'ava'
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PageRecord } from '../scripts/cache/run-page.ts'

const SCRIPT = fileURLToPath(new URL('../scripts/bench-cache.ts', import.meta.url))

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', SCRIPT, ...args], { timeout: 100_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

test('bench:cache visits six pages of the three templates in two passes and prints the pass rows, the step times and the targets', async (t) => {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-cache-test-')), 'pages.jsonl')
  const { code, stdout, stderr } = await runScript(['--pages=6', `--out=${out}`])
  t.is(code, 0, stderr)

  const records = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as PageRecord)
  const visits = ['/category/1', '/product/1', '/search?store=1', '/category/2', '/product/2', '/search?store=2']
  t.deepEqual(records.map((record) => [record.pass, record.path]), [...visits.map((path) => [1, path]), ...visits.map((path) => [2, path])])
  for (const record of records) t.true(record.ok, `pass ${record.pass} ${record.path}: ${record.problem}`)

  // The cold pass reads nothing: every goal asks the model each step and DONE, every extraction asks for rules.
  for (const record of records.filter((item) => item.pass === 1)) {
    t.like(record, { goalCache: 'miss', extractCache: 'miss', extractRequests: 1 })
    t.is(record.decisions, record.steps.length + 1)
    t.true(record.steps.every((step) => !step.cached))
    t.is(record.goalTextRequests, record.template === 'search' ? 1 : 0)
  }

  const json = JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1))
  t.is(json.pages, 6)
  t.is(readdirSync(json.cache).filter((name) => name.endsWith('.json')).length, 6, 'one goal and one rules entry per template')
  t.deepEqual(json.passes.map((pass: { pass: number; pages: number; failed: number }) => [pass.pass, pass.pages, pass.failed]), [
    [1, 6, 0],
    [2, 6, 0],
  ])
  t.like(json.passes[0], { decisionRequestsPerPage: 2.667, extractRequestsPerPage: 1, goalCache: { miss: 1 }, extractCache: { miss: 1 }, cachedSteps: 0 })

  t.regex(stdout, /^\| Pass \| Pages \| Failed \| Decision requests \/ page \| Goal text requests \/ page \| Extraction requests \/ page \| Median time \/ page \| Goal cache hit \/ healed \/ miss \| Extraction cache hit \/ healed \/ miss \| Goal steps from the cache \|$/m)
  t.regex(stdout, /^\| cold \(written, not read\) \| 6 \| 0 \| 2\.667 \| 0\.333 \| 1\.000 \| [\d.]+ ms \| 0\.0% \/ 0\.0% \/ 100\.0% \| 0\.0% \/ 0\.0% \/ 100\.0% \| 0 of 10 \(0\.0%\) \|$/m)
  t.regex(stdout, /^\| warm \(from the cache\) \| 6 \| 0 \| [\d.]+ \| [\d.]+ \| [\d.]+ \| [\d.]+ ms \| .+ \| .+ \| \d+ of \d+ \(.+%\) \|$/m)
  t.regex(stdout, /^\| model \| 10 \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ ms \| [\d.]+ ms \| .*SELECT [\d.]+ ms \(4\).* \|$/m)
  t.regex(stdout, /^\| replayed \| \d+ \| /m)
  t.regex(stdout, /^- Extraction requests per page, second pass: [\d.]+ \(target ≤ 0\.05\): (met|MISSED)$/m)
  t.regex(stdout, /^- Goal steps from the cache, second pass: .+ \(target ≥ 95%\): (met|MISSED)$/m)
  t.regex(stdout, /^- Replayed step's non-model time against a model step's: .+ \(target within 10%\): (met|MISSED|NOT MEASURED)$/m)
  t.regex(stderr, /\[bench:cache\] pass 2 6\/6 \/search\?store=2: ok; goal \w+, extraction \w+/)

  // With the cache working, the warm pass replays every step and reads with the stored rules.
  t.like(json.passes[1], { decisionRequestsPerPage: 1, goalTextRequestsPerPage: 0, extractRequestsPerPage: 0, goalCache: { hit: 1 }, extractCache: { hit: 1 }, cachedStepShare: 1 })
})

test('bench:cache refuses a bad --pages before it starts Chrome', async (t) => {
  const { code, stderr } = await runScript(['--pages=0'])
  t.is(code, 2)
  t.regex(stderr, /--pages must be an integer of at least 1/)
  t.notRegex(stderr, /\[bench:cache\]/)
})
