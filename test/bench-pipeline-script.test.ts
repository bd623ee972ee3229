import test from 'ava'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Level } from '../scripts/pipeline/level.ts'

const SCRIPT = fileURLToPath(new URL('../scripts/bench-pipeline.ts', import.meta.url))

function runScript(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--experimental-strip-types', '--expose-gc', SCRIPT, ...args], { timeout: 110_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

test('bench:pipeline runs six pages at concurrency 1 and 2, twice each, and prints the rows with no failures and no leftovers', async (t) => {
  const { code, stdout, stderr } = await runScript(['--pages=6', '--concurrency=1,2'])
  t.is(code, 0, stderr)
  const number = String.raw`-?[\d.]+`

  for (const [concurrency, run] of [[1, 1], [1, 2], [2, 1], [2, 2]]) {
    // Throughput and CPU: 6 pages, none failed, every goal 2⅔ decisions (product 3, category 2, search 3).
    t.regex(stdout, new RegExp(String.raw`^\| ${concurrency} \| ${run} \| 6 \| 0 \| ${number} \| \d+ ms \| \d+ ms \| \d+ / \d+ / \d+ / \d+ / \d+ \| 2\.67 \| \d+ \+ \d+ \| ${number} \| ${number} \(${number} / ${number} / ${number}\) \| ${number} \| ${number} \|$`, 'm'))
    // Memory.
    t.regex(stdout, new RegExp(String.raw`^\| ${concurrency} \| ${run} \| [+-][\d.]+ KB \| [+-][\d.]+ KB \| \d+ MB, \d+ MB \| \d+ MB → \d+ MB, \d+ MB \| -?\d+ MB \| \d+ MB \| \d+ \|$`, 'm'))
    // Leftovers: every counter unchanged (one number, no arrow), nothing left on the pages.
    t.regex(stdout, new RegExp(String.raw`^\| ${concurrency} \| ${run} \| 1 \| 1 \| \d+ \| \d+ \| \d+ \| \d+ \| \d+ \| 0 \| none \| \d+ MB → \d+ MB \| .+ \|$`, 'm'))
  }
  t.regex(stdout, /^\| Concurrency \| Run \| Pages \| Failed \| Pages \/ min \| Median page \| p90 page \|/m)
  t.regex(stdout, /^\| Concurrency \| Run \| open pages \| browser contexts \| targets \| CDP sessions \| Browser listeners \| process listeners \| Node active handles \(less the site's\) \| Page objects alive \| Left on pages \|/m)
  t.regex(stdout, /^Failures: none$/m)
  t.regex(stdout, /^Leftovers: none$/m)
  t.regex(stdout, /^Node heap after GC: [\d.]+ MB after the first run, [\d.]+ MB after 18 more pages \([+-][\d.]+ KB per 100 pages\)\.$/m)
  t.regex(stdout, /^Throughput \(mean of runs\): [\d.]+ pages\/min at 1, [\d.]+ pages\/min at 2; best at concurrency [12], [\d.]+× concurrency 1\.$/m)
  t.regex(stdout, /^CPU per page, Node \+ Chrome: \d+ \+ \d+ = \d+ ms at 1, \d+ \+ \d+ = \d+ ms at 2; the \d+ cores with nothing else running would serve at most \d+, \d+ pages\/min at those costs\.$/m)
  t.regex(stdout, /^CPU at concurrency [12]: the machine's \d+ cores \d+% busy: Chrome [\d.]+ cores \(renderers [\d.]+, browser process [\d.]+\), Node [\d.]+ .*, other processes [\d.]+\.$/m)
  t.regex(stdout, /^Memory at concurrency 2: Chrome PSS -?\d+ MB per open page/m)
  t.regex(stdout, /^Bound by: (CPU|neither)/m)

  const json = JSON.parse(stdout.slice(stdout.indexOf('\n{') + 1)) as { failed: number; leftovers: string[]; isolation: string; levels: Level[] }
  t.like(json, { failed: 0, leftovers: [], isolation: 'context' })
  t.deepEqual(json.levels.map((level) => [level.concurrency, level.run, level.pages, level.failed]), [
    [1, 1, 6, 0],
    [1, 2, 6, 0],
    [2, 1, 6, 0],
    [2, 2, 6, 0],
  ])
  for (const level of json.levels) {
    t.deepEqual(level.grown, [])
    t.deepEqual(level.pageLeftovers, {})
    t.like(level.after, { pages: 1, contexts: 1, livePages: 0, cdpSessions: level.before.cdpSessions })
    t.true(level.pagesPerMinute > 0 && level.cpu.chrome > 0 && level.cpu.node > 0)
    t.true(level.memory.chromePssPeakMb > 0 && level.memory.renderersPeak >= 1)
  }
  t.regex(stderr, /\[bench:pipeline\] concurrency 2 run 2: 6\/6 ok in [\d.]+ s, [\d.]+ pages\/min; leftovers: none/)
})

test('bench:pipeline refuses a bad --concurrency before it starts Chrome', async (t) => {
  const { code, stderr } = await runScript(['--concurrency=1,0'])
  t.is(code, 2)
  t.regex(stderr, /--concurrency must list integers of at least 1, got "0"/)
  t.notRegex(stderr, /\[bench:pipeline\]/)
})
