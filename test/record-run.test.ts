import test from 'ava'
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import agent from '../src/index.ts'
import { RunRecorder } from '../src/record/run-recorder.ts'
import type { ResultLine, RunLine, StepLine } from '../src/record/run-lines.ts'
import { useChrome } from './helpers/chrome.ts'
import { useFixtureServers } from './helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from './helpers/goal-scripted-model.ts'

// Recording a run: one folder per goal or extraction, with run.jsonl (a line per step and the
// result), a screenshot per observation decided on, the final page, and report.html.

const chrome = useChrome(test)
const servers = useFixtureServers(test)

const open = (t: Parameters<typeof chrome.page>[0], path: string) => chrome.open(t, servers.site.url(path))

async function linesOf(report: string): Promise<RunLine[]> {
  const text = await readFile(join(dirname(report), 'run.jsonl'), 'utf8')
  return text.trim().split('\n').map((line) => JSON.parse(line) as RunLine)
}

const SEARCH: ScriptStep[] = [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }]

async function search(t: Parameters<typeof chrome.page>[0], record: unknown) {
  const page = await open(t, 'sites/search/index.html')
  const result = await agent(page).goal('Search for dune.', {
    decisions: scriptedModel(SEARCH).model,
    text: textModel('dune'),
    evaluator: evaluatorModel(0.9),
    checklist: false,
    record,
  } as never)
  return { page, result }
}

test('a recorded goal writes run.jsonl, a screenshot per step, the final page and report.html', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const { result } = await search(t, dir)
  t.is(result.status, 'success', result.error?.message)
  t.truthy(result.report)
  const folder = dirname(result.report!)
  t.is(dirname(folder), dir)
  t.regex(folder, /\d{4}-\d\d-\d\dT[\d-]+Z-goal-search-for-dune-[0-9a-f]{4}$/)
  const files = (await readdir(folder)).sort()
  t.deepEqual(files, ['final.jpg', 'report.html', 'run.jsonl', 'step-001.jpg', 'step-002.jpg', 'step-003.jpg'])

  const lines = await linesOf(result.report!)
  t.is(lines.length, 4)
  const [typed, submit, done] = lines as StepLine[]
  const last = lines[3] as ResultLine
  t.like(typed, { kind: 'step', operation: 'TYPE_TEXT', step: 1, request: 1, screenshot: 'step-001.jpg', text: '••••', masked: true })
  t.like(submit, { operation: 'SUBMIT', screenshot: 'step-002.jpg', pageChanged: true })
  t.like(done, { operation: 'DONE', screenshot: 'step-003.jpg' })
  t.is(typed!.target!.name, 'Search books')
  t.true(typed!.target!.box!.width > 0)
  t.deepEqual(typed!.viewport, { width: 1000, height: 800 })
  t.is(typed!.heads.operation![0]!.id, 'TYPE_TEXT')
  t.is(typed!.heads.target![0]!.label, 'Search books')
  t.is(typed!.cost.calls, 2, 'the decision and the typed value')
  t.like(last, { kind: 'result', call: 'goal', goal: 'Search for dune.', status: 'success', steps: 2, decisions: 3, screenshot: 'final.jpg' })
  t.regex(last.url, /results\.html\?q=dune/)
  for (const file of ['step-001.jpg', 'final.jpg']) {
    const bytes = await readFile(join(folder, file))
    t.is(bytes.readUInt16BE(0), 0xffd8, `${file} is a JPEG`)
  }
  t.false((await readFile(join(folder, 'run.jsonl'), 'utf8')).includes('"dune"'), 'the typed value is masked')

  // The evaluator's verdict is written into the result line once profiling() has it.
  const { accuracy } = await result.profiling()
  const evaluated = (await linesOf(result.report!)).at(-1) as ResultLine
  t.deepEqual(evaluated.accuracy, accuracy)
  t.true((await stat(result.report!)).size > 0)
})

test('typedValues: true keeps typed values; recording is off without the option', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const kept = await search(t, { dir, typedValues: true })
  t.like((await linesOf(kept.result.report!))[0], { text: 'dune' })
  const off = await search(t, undefined)
  t.is(off.result.report, undefined)
  t.false('report' in JSON.parse(JSON.stringify(off.result)))
})

test('a failed goal and an extraction are recorded too', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const page = await open(t, 'sites/news/index.html')
  const failed = await agent(page).goal('Open the comments.', {
    decisions: scriptedModel([{ operation: 'BLOCKED' }]).model,
    text: textModel('unused'),
    checklist: false,
    record: dir,
  })
  t.is(failed.status, 'error')
  const last = (await linesOf(failed.report!)).at(-1) as ResultLine
  t.like(last, { status: 'error', failure: 'model_blocked' })
  t.regex(last.reason!, /BLOCKED/)

  const extracted = await agent(page).extract({ title: { selector: 'h1', attr: 'text' } }, { record: dir })
  t.is(extracted.status, 'success')
  const lines = await linesOf(extracted.report!)
  t.is(lines.length, 1)
  t.like(lines[0], { kind: 'result', call: 'extract', status: 'success', steps: 0, screenshot: 'final.jpg' })
  t.is(JSON.parse((lines[0] as ResultLine).data!).title, await page.$eval('h1', (h1) => h1.textContent))
  t.is((await readdir(dir)).length, 2)
})

test.serial('PUPPETEER_AGENT_RECORD turns recording on; record: false turns it off', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const page = await open(t, 'sites/news/index.html')
  process.env.PUPPETEER_AGENT_RECORD = dir
  try {
    const on = await agent(page).extract({ title: { selector: 'h1', attr: 'text' } })
    t.is(dirname(dirname(on.report!)), dir)
    const off = await agent(page).extract({ title: { selector: 'h1', attr: 'text' } }, { record: false })
    t.is(off.report, undefined)
  } finally {
    delete process.env.PUPPETEER_AGENT_RECORD
  }
})

test('the report of a real run, opened in Chrome: a card per step, images loaded, the box on the target, no network', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const page = await open(t, 'sites/search/index.html')
  const field = await page.$eval('input', (input) => {
    const rect = input.getBoundingClientRect()
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height }
  })
  const result = await agent(page).goal('Search for dune.', {
    decisions: scriptedModel(SEARCH).model,
    text: textModel('dune'),
    checklist: false,
    record: dir,
  })
  const viewer = await chrome.page(t)
  const requests: string[] = []
  const errors: string[] = []
  viewer.on('request', (request) => requests.push(request.url()))
  viewer.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  viewer.on('pageerror', (error) => errors.push(String(error)))
  await viewer.goto(`file://${result.report}`, { waitUntil: 'load' })
  t.is(await viewer.$$eval('.step-card', (cards) => cards.length), 3)
  t.true(await viewer.$$eval('img', (images) => images.length === 4 && images.every((image) => image.complete && image.naturalWidth > 0)))
  t.deepEqual(errors, [])
  t.true(requests.every((url) => url.startsWith('file://')), requests.join(' '))
  const box = await viewer.$eval('.step-card .target-box', (span) => ({
    x: Number(span.getAttribute('data-x')),
    y: Number(span.getAttribute('data-y')),
    width: Number(span.getAttribute('data-width')),
    height: Number(span.getAttribute('data-height')),
  }))
  for (const key of ['x', 'y', 'width', 'height'] as const) t.true(Math.abs(box[key] - field[key]) < 1, `${key}: ${box[key]} vs ${field[key]}`)
  t.false((await viewer.content()).includes('dune"'), 'the typed value is masked')
})

/** What console.warn is given while `run` runs. */
async function warnings<T>(run: () => Promise<T>): Promise<{ value: T; warned: string[] }> {
  const warned: string[] = []
  const original = console.warn
  console.warn = (...args: unknown[]) => void warned.push(args.join(' '))
  try {
    return { value: await run(), warned }
  } finally {
    console.warn = original
  }
}

test.serial('a record directory that cannot be made: the run goes on, stderr says why, and there is no report', async (t) => {
  const file = join(await mkdtemp(join(tmpdir(), 'pa-record-')), 'a-file')
  await writeFile(file, '')
  const page = await open(t, 'sites/news/index.html')
  const { value: result, warned } = await warnings(() => agent(page).extract({ title: { selector: 'h1', attr: 'text' } }, { record: join(file, 'sub') }))
  t.is(result.status, 'success', result.error?.message)
  t.is(result.report, undefined)
  t.is(warned.length, 1, warned.join('\n'))
  t.regex(warned[0]!, /^puppeteer-agent: record: cannot create the run folder .*\/a-file\/sub\/[^/]+-extract-[0-9a-f]{4}: ENOTDIR.*Nothing of this run is recorded\.$/)
})

test.serial('a report that cannot be written is not the result\'s report, and stderr says why', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const page = await open(t, 'sites/news/index.html')
  const { cost, timing } = await (await agent(page).extract({ title: { selector: 'h1', attr: 'text' } })).profiling()
  const recorder = new RunRecorder({ dir, typedValues: false }, page, 'extract', 'title')
  // Where the report goes there is a directory: writing it fails as on a full disk, after the folder was made.
  await mkdir(join(recorder.folder, 'report.html'), { recursive: true })
  const { value: report, warned } = await warnings(() => recorder.finish({ call: 'extract', status: 'success', steps: 0, decisions: 0, cost, timing }))
  t.is(report, undefined)
  t.is(warned.length, 1, warned.join('\n'))
  t.regex(warned[0]!, /^puppeteer-agent: record: writing to .* failed: EISDIR.*The recording of this run is incomplete\.$/)
  t.true((await readdir(recorder.folder)).includes('run.jsonl'), 'what could be written was')
})

test('typedValues: true still masks a field that turned into a password one after it was observed', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'pa-record-'))
  const page = await chrome.page(t)
  // Observed, and still when its freshness is checked, as a text field; a password one as the value goes in.
  await page.setContent(`<label>Code <input id="code"></label><script>
    code.addEventListener('input', () => { code.type = 'password' })
  </script>`)
  const result = await agent(page).goal('Enter the code.', {
    decisions: scriptedModel([{ operation: 'TYPE_TEXT', target: /Code/ }, { operation: 'DONE' }]).model,
    text: textModel('483920'),
    checklist: false,
    record: { dir, typedValues: true },
  })
  t.is(await page.$eval('#code', (input) => `${(input as HTMLInputElement).type} ${(input as HTMLInputElement).value}`), 'password 483920')
  const [typed] = (await linesOf(result.report!)) as StepLine[]
  t.like(typed, { operation: 'TYPE_TEXT', text: '••••••', masked: true })
  t.false((await readFile(join(dirname(result.report!), 'run.jsonl'), 'utf8')).includes('483920'))
  t.false((await readFile(result.report!, 'utf8')).includes('483920'))
})
