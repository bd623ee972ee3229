import test from 'ava'
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Page } from 'puppeteer-core'
import { readRun, writeReport } from '../src/record/read-run.ts'
import { renderReport } from '../src/record/report-html.ts'
import type { Rect } from '../src/base/rect.ts'
import type { ResultLine, RunLine, StepLine } from '../src/record/run-lines.ts'
import type { TraceEntry } from '../types/index.d.ts'
import { stepLine } from '../src/record/step-line.ts'
import { useChrome } from './helpers/chrome.ts'
import { pageObservation } from './helpers/observations.ts'

// The report as a person gets it: a run folder with run.jsonl and real JPEGs of a page whose layout
// the test knows, rendered, then opened from disk in real Chrome.

const chrome = useChrome(test)
const BIN = fileURLToPath(new URL('../dist/cli/bin.js', import.meta.url))
const SCREENSHOT_SCRIPT = fileURLToPath(new URL('../scripts/report-screenshot.ts', import.meta.url))
const VIEWPORT = { width: 800, height: 500 }
/** The bound stated for a 60-step run's report.html (images not included: they are files beside it). */
const REPORT_LIMIT = 200_000

// A page with its target away from the corner, in a colour nothing else has, so a box that is
// misplaced or mis-scaled lands on something else.
const FIXTURE = `<!doctype html><title>Shop</title><style>body{margin:0;font:16px sans-serif;background:#fff}
#q{position:absolute;left:40px;top:40px;width:300px;height:32px}
#go{position:absolute;left:520px;top:300px;width:160px;height:60px;border:0;background:#f0f}</style>
<input id="q" aria-label="Search"><button id="go" aria-label="Go"></button>`

const HOSTILE_TITLE = '<script>alert(1)</script>'
const HOSTILE_NAME = '<img src=x onerror=alert(2)>'

interface Fixture {
  jpeg: Buffer
  button: Rect
  input: Rect
}

async function fixture(page: Page): Promise<Fixture> {
  await page.setViewport(VIEWPORT)
  await page.setContent(FIXTURE)
  const box = async (selector: string) => (await (await page.$(selector))!.boundingBox())!
  return { jpeg: Buffer.from(await page.screenshot({ type: 'jpeg', quality: 80 })), button: await box('#go'), input: await box('#q') }
}

function step(fields: Partial<StepLine> & Pick<StepLine, 'step' | 'operation'>): StepLine {
  return {
    kind: 'step',
    request: fields.step,
    url: 'http://shop.test/',
    title: 'Shop',
    heads: {},
    pageChanged: true,
    notes: [],
    timing: { observeMs: 12, decisionMs: 40, actMs: 30, recordMs: 8 },
    cost: { calls: 1, inputTokens: 1200, outputTokens: 3, usd: 0.00012 },
    viewport: VIEWPORT,
    ...fields,
  }
}

function result(fields: Partial<ResultLine> = {}): ResultLine {
  return {
    kind: 'result',
    call: 'goal',
    goal: 'Search for "trail shoes" & open <the first> result',
    status: 'success',
    steps: 3,
    decisions: 4,
    verified: true,
    checklist: [{ description: 'Search for trail shoes', kind: 'field_value', status: 'done', evidence: 'Search = trail shoes' }],
    cost: { calls: 5, inputTokens: 6000, outputTokens: 20, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, usd: 0.0006, generationIds: [] },
    timing: { totalMs: 2400, modelMs: 1500, otherMs: 900, evaluationMs: 0 },
    url: 'http://shop.test/product/1',
    title: 'Trail Runner',
    screenshot: 'final.jpg',
    viewport: VIEWPORT,
    startedAt: '2026-12-01T10:00:00.000Z',
    endedAt: '2026-12-01T10:00:02.400Z',
    ...fields,
  }
}

function runFolder(lines: readonly RunLine[], images: Record<string, Buffer>): string {
  const folder = mkdtempSync(join(tmpdir(), 'report-test-'))
  writeFileSync(join(folder, 'run.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
  for (const [name, jpeg] of Object.entries(images)) writeFileSync(join(folder, name), jpeg)
  return folder
}

/** A run of the fixture: typing (masked), a click on the button, a stale decision, DONE. */
function sampleRun(shots: Fixture): RunLine[] {
  return [
    step({
      step: 1,
      operation: 'TYPE_TEXT',
      target: { id: 'e1', name: 'Search', role: 'textbox', box: shots.input },
      text: '•••••',
      masked: true,
      heads: { operation: [{ id: 'TYPE_TEXT', p: 0.91 }, { id: 'CLICK', p: 0.09 }], target: [{ id: 'e1', label: 'Search', p: 1 }] },
      screenshot: 'step-001.jpg',
    }),
    step({
      step: 2,
      operation: 'CLICK',
      title: HOSTILE_TITLE,
      target: { id: 'e2', name: HOSTILE_NAME, role: 'button', box: shots.button },
      heads: { operation: [{ id: 'CLICK', p: 0.8 }, { id: 'SUBMIT', p: 0.2 }], target: [{ id: 'e2', label: HOSTILE_NAME, p: 0.7 }, { id: 'e1', label: 'Search', p: 0.3 }] },
      risk: 0.1,
      approved: true,
      screenshot: 'step-002.jpg',
    }),
    // Its screenshot file is gone from the folder: the card must say so rather than show a broken image.
    step({ step: 2, request: 3, operation: 'CLICK', target: { id: 'e9', name: 'Old link' }, stale: 'the target moved', pageChanged: false, notes: ['Discarded before any input: the target moved.'], screenshot: 'step-003.jpg' }),
    step({ step: 2, request: 4, operation: 'DONE', pageChanged: false }),
    result(),
  ]
}

async function openReport(page: Page, path: string): Promise<{ requests: string[]; errors: string[] }> {
  const requests: string[] = []
  const errors: string[] = []
  page.on('request', (request) => void requests.push(request.url()))
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
  page.on('pageerror', (error) => void errors.push(String(error)))
  page.on('dialog', (dialog) => void errors.push(`dialog: ${dialog.message()}`))
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' })
  return { requests, errors }
}

/** The colour at a point of the rendered report, read back from a screenshot of that one pixel. */
async function pixel(t: { teardown(fn: () => unknown): void }, page: Page, x: number, y: number): Promise<number[]> {
  const png = await page.screenshot({ type: 'png', encoding: 'base64', clip: { x: Math.round(x), y: Math.round(y), width: 1, height: 1 } })
  // Decoded in a page of its own: the report's policy allows no data: image, rightly.
  const reader = await chrome.page(t)
  return reader.evaluate(async (data) => {
    const image = new Image()
    image.src = `data:image/png;base64,${data}`
    await image.decode()
    const canvas = new OffscreenCanvas(1, 1)
    const context = canvas.getContext('2d')!
    context.drawImage(image, 0, 0)
    return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)]
  }, png)
}

test('Chrome opens the report from disk: a card per step, every image, the box on the target, nothing fetched, nothing run', async (t) => {
  const shots = await fixture(await chrome.page(t))
  const folder = runFolder(sampleRun(shots), { 'step-001.jpg': shots.jpeg, 'step-002.jpg': shots.jpeg, 'final.jpg': shots.jpeg })
  const report = await writeReport(folder)
  t.is(report, join(folder, 'report.html'))

  const page = await chrome.page(t, { width: 1300, height: 900 })
  const { requests, errors } = await openReport(page, report)
  t.deepEqual(errors, [])
  // Only the report and its images, all from the folder; the links to full-size images are not followed.
  t.deepEqual([...new Set(requests)].sort(), ['final.jpg', 'report.html', 'step-001.jpg', 'step-002.jpg'].map((name) => pathToFileURL(join(folder, name)).href))

  const view = await page.evaluate(() => ({
    cards: document.querySelectorAll('.step-card').length,
    images: [...document.images].map((image) => image.complete && image.naturalWidth > 0),
    missing: [...document.querySelectorAll('.step-card')].map((card) => card.querySelector('.shot.none')?.textContent ?? null),
    scripts: document.scripts.length,
    text: document.body.innerText,
    banner: document.querySelector('.banner.ok')?.textContent,
  }))
  t.is(view.cards, 4)
  t.deepEqual(view.images, [true, true, true])
  t.deepEqual(view.missing, [null, null, 'No screenshot', 'No screenshot'])
  t.is(view.scripts, 0)
  t.regex(view.banner!, /Succeeded\s*verified/)
  t.true(view.text.includes('Search for "trail shoes" & open <the first> result'))
  // Hostile strings are shown as text: no element was made of them and no dialog opened (errors above).
  t.true(view.text.includes(HOSTILE_TITLE))
  t.true(view.text.includes(HOSTILE_NAME))
  t.regex(view.text, /Typed •••••\s*\(masked\)/)

  const box = async () =>
    page.evaluate(() => {
      const card = document.querySelector('#s2')!
      const rect = (element: Element) => element.getBoundingClientRect().toJSON() as DOMRect
      const mark = card.querySelector<HTMLElement>('.target-box')!
      return { image: rect(card.querySelector('img')!), mark: rect(mark), data: { ...mark.dataset }, info: rect(card.querySelector('.info')!) }
    })
  for (const width of [1300, 600]) {
    await page.setViewport({ width, height: 900 })
    const { image, mark, data, info } = await box()
    t.deepEqual(data, { x: String(shots.button.x), y: String(shots.button.y), width: String(shots.button.width), height: String(shots.button.height) })
    // Where the button is in the image as rendered at this width.
    const scale = image.width / VIEWPORT.width
    const expected = { left: image.left + shots.button.x * scale, top: image.top + shots.button.y * scale, width: shots.button.width * scale, height: shots.button.height * scale }
    for (const edge of ['left', 'top', 'width', 'height'] as const) t.true(Math.abs(mark[edge] - expected[edge]) < 1.5, `${edge} at width ${width}`)
    // The picture under the box's middle is the magenta button.
    const [r, g, b] = await pixel(t, page, mark.left + mark.width / 2, mark.top + mark.height / 2)
    t.true(r! > 200 && g! < 90 && b! > 200, `rgb(${r}, ${g}, ${b}) at width ${width}`)
    // Side by side on a wide screen, stacked on a narrow one.
    t.is(info.top >= image.bottom, width < 900, `layout at width ${width}`)
  }
})

test('a failed run shows its failure tag and reason in a red banner in the first viewport', async (t) => {
  const shots = await fixture(await chrome.page(t))
  const reason = 'The step budget of 60 actions ran out before the goal was met.'
  const lines = [...sampleRun(shots).slice(0, 2), result({ status: 'error', failure: 'step_budget', reason, verified: false })]
  const folder = runFolder(lines, { 'step-001.jpg': shots.jpeg, 'step-002.jpg': shots.jpeg, 'final.jpg': shots.jpeg })
  const page = await chrome.page(t, { width: 1280, height: 720 })
  const { errors } = await openReport(page, await writeReport(folder))
  t.deepEqual(errors, [])
  const banner = await page.evaluate(() => {
    const element = document.querySelector<HTMLElement>('.banner.fail')!
    return { text: element.innerText, rect: element.getBoundingClientRect().toJSON() as DOMRect, color: getComputedStyle(element).backgroundColor, role: element.getAttribute('role') }
  })
  t.regex(banner.text, /Failed\s*step_budget/)
  t.true(banner.text.includes(reason))
  t.is(banner.role, 'alert')
  t.true(banner.rect.top >= 0 && banner.rect.bottom <= 720 / 2, 'in the upper half of the first viewport')
  const [r, g, b] = banner.color.match(/\d+/g)!.map(Number)
  t.true(r! > g! && r! > b!, `a red background: ${banner.color}`)
})

test(`a 60-step run's report.html stays under ${REPORT_LIMIT / 1000} KB`, (t) => {
  // Every step as full as a busy run makes it: five options per head with long names, several notes.
  const name = (index: number) => `Product card ${index}: Trail Runner Pro waterproof, size 42, colour storm grey`
  const lines: RunLine[] = Array.from({ length: 60 }, (_, index) =>
    step({
      step: index + 1,
      operation: 'CLICK',
      url: `https://shop.example.com/catalogue/trail-running/shoes?page=${index}&sort=relevance&filter=waterproof`,
      title: 'Trail running shoes — Example Shop, free delivery over 50 €',
      target: { id: `e${index}`, name: name(index), role: 'link', box: { x: 100, y: 200, width: 300, height: 40 } },
      heads: {
        operation: ['CLICK', 'TYPE_TEXT', 'SCROLL_DOWN', 'SUBMIT', 'DONE'].map((id, rank) => ({ id, p: 0.5 / (rank + 1) })),
        target: [0, 1, 2, 3, 4].map((rank) => ({ id: `e${index + rank}`, label: name(index + rank), p: 0.5 / (rank + 1) })),
      },
      notes: ['The page did not change.', 'alert "Your basket has been updated with one item." was accepted.', 'The page opened a new tab at https://ads.example.com/track?id=123456; it is not followed.'],
      risk: 0.2,
      approved: true,
      screenshot: `step-${String(index + 1).padStart(3, '0')}.jpg`,
    }),
  )
  lines.push(result({ steps: 60, decisions: 60, data: JSON.stringify({ items: Array.from({ length: 200 }, (_, index) => name(index)) }).slice(0, 20_000) }))
  const size = Buffer.byteLength(renderReport(lines))
  t.log(`60-step report: ${(size / 1000).toFixed(1)} KB`)
  t.true(size < REPORT_LIMIT, `${size} bytes`)
})

test('a target outside the screenshot is said in words, not boxed', (t) => {
  const html = renderReport([step({ step: 1, operation: 'CLICK', target: { id: 'e1', name: 'Footer link', box: { x: 10, y: 900, width: 80, height: 20 } }, screenshot: 'step-001.jpg' })])
  t.false(html.includes('class="target-box"'))
  t.true(html.includes('The target is below the visible part of the page.'))
  t.regex(html, /Unfinished/)
})

test('a key pressed and a drop target are said beside the operation, the page\'s names escaped', (t) => {
  const html = renderReport([
    step({ step: 1, operation: 'PRESS', target: { id: 'e2', name: 'Search' }, key: 'Enter' }),
    step({ step: 2, operation: 'DRAG', target: { id: 'e5', name: 'Item C' }, to: HOSTILE_NAME }),
  ])
  t.true(html.includes('<q>Search</q> <kbd>Enter</kbd>'))
  t.true(html.includes('<q>Item C</q> → <q>&lt;img src=x onerror=alert(2)&gt;</q>'))
  t.false(html.includes(HOSTILE_NAME))
})

test('run.jsonl keeps the key PRESS pressed and where DRAG dropped, from the trace entry', (t) => {
  const observation = pageObservation({ url: 'http://shop.test/' })
  const line = (entry: Partial<TraceEntry> & Pick<TraceEntry, 'operation'>) =>
    stepLine(
      { entry: { request: 1, step: 1, stale: false, pageChanged: true, decisionMs: 1, url: observation.url, ...entry }, decision: { operation: entry.operation, decisionMs: 1 }, observation, element: undefined },
      { calls: [], typedValues: true, recordMs: 0 },
    )
  t.like(line({ operation: 'PRESS', target: 'page', key: 'Escape' }), { key: 'Escape', target: { id: 'page' } })
  t.like(line({ operation: 'DRAG', target: 'e5', targetName: 'Item C', to: 'right-25' }), { to: 'right-25', target: { id: 'e5', name: 'Item C' } })
})

test('readRun names the line that is not a run line', async (t) => {
  const good = JSON.stringify(step({ step: 1, operation: 'WAIT' }))
  const read = (text: string) => {
    const folder = mkdtempSync(join(tmpdir(), 'report-test-'))
    writeFileSync(join(folder, 'run.jsonl'), text)
    return readRun(folder)
  }
  t.is((await read(`${good}\n\n${JSON.stringify(result())}\n`)).length, 2)
  await t.throwsAsync(read(`${good}\n${JSON.stringify({ ...step({ step: 2, operation: 'CLICK' }), step: 'two' })}\n`), { message: /^run\.jsonl line 2: step: / })
  await t.throwsAsync(read(`${good}\n${good}\n{"kind":"step",\n`), { message: /^run\.jsonl line 3 is not JSON/ })
  await t.throwsAsync(read(`${good}\n${JSON.stringify({ ...step({ step: 2, operation: 'CLICK' }), heads: { target: [{ id: 'e1', p: 2 }] } })}\n`), {
    message: /^run\.jsonl line 2: heads\.target\.0\.p: /,
  })
  await t.throwsAsync(read(`${JSON.stringify(result())}\n${good}\n`), { message: /line 2 follows the result line/ })
  await t.throwsAsync(read('\n'), { message: /holds no lines/ })
})

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr })
    })
  })
}

test('puppeteer-agent report <folder> rebuilds report.html and prints its path; no run folder exits 2', async (t) => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npx tsc first (npm test does).`)
  const folder = runFolder([step({ step: 1, operation: 'DONE' }), result({ steps: 0, screenshot: undefined })], {})
  const done = await run([BIN, 'report', folder])
  t.is(done.code, 0, done.stderr)
  t.is(done.stdout, `${join(folder, 'report.html')}\n`)
  t.regex(readFileSync(join(folder, 'report.html'), 'utf8'), /class="step-card"/)

  const missing = await run([BIN, 'report', join(folder, 'nowhere')])
  t.is(missing.code, 2)
  t.regex(missing.stderr, /No run folder at .*nowhere/)
  const empty = mkdtempSync(join(tmpdir(), 'report-test-'))
  const noRun = await run([BIN, 'report', empty])
  t.is(noRun.code, 2)
  t.regex(noRun.stderr, /has no run\.jsonl/)
  writeFileSync(join(empty, 'run.jsonl'), '{"kind":"nothing"}\n')
  const bad = await run([BIN, 'report', empty])
  t.is(bad.code, 1)
  t.regex(bad.stderr, /run\.jsonl line 1: kind: /)
})

test('npm run report:screenshot writes a full-page PNG of the report of the newest run in a directory', async (t) => {
  const shots = await fixture(await chrome.page(t))
  const runs = mkdtempSync(join(tmpdir(), 'report-test-'))
  for (const [name, time] of [['older', 1_000], ['newer', 2_000]] as const) {
    const folder = join(runs, name)
    renameSync(runFolder(sampleRun(shots), { 'step-001.jpg': shots.jpeg, 'step-002.jpg': shots.jpeg, 'final.jpg': shots.jpeg }), folder)
    utimesSync(join(folder, 'run.jsonl'), time, time)
  }
  const out = join(runs, 'report.png')
  const { code, stdout, stderr } = await run(['--experimental-strip-types', SCREENSHOT_SCRIPT, runs, `--out=${out}`])
  t.is(code, 0, stderr)
  t.is(stdout, `${out}\n`)
  t.true(existsSync(join(runs, 'newer', 'report.html')))
  t.false(existsSync(join(runs, 'older', 'report.html')))
  // The PNG header: its width is the script's viewport, its height the whole page's, more than one screen.
  const png = readFileSync(out)
  t.is(png.subarray(1, 4).toString(), 'PNG')
  t.is(png.readUInt32BE(16), 1280)
  t.true(png.readUInt32BE(20) > 800)
})
