// Time of a goal step outside the model: observe, guard, act and settle, on local fixture sites with
// an instant scripted decision model. Prints the median per step (WAIT's pause excluded) and the
// model requests per step, then a row with run recording on (`record`): what a step waits for its
// screenshot and the writing of its line (`recordMs` of run.jsonl), the goal's wall time per decision
// with and without recording, and the size of a run folder; and a row with `vision` on: the time to
// capture and badge each request's image (`imageMs`), its size, and the wall time it adds per
// decision. All arms run interleaved, task by task, at a 1280×800 viewport.
// The last three tasks use PRESS, HOVER and DRAG; compare `medianByOperation` across checkouts for
// the operations both have.
// Run: npm run bench:steps [-- --runs=5 --model-ms=0 --tasks=news,search]
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { Page } from 'puppeteer-core'
import agent from '../src/index.ts'
import type { GoalResult } from '../types/index.d.ts'
import { launchChrome } from '../test/helpers/chrome.ts'
import { serveFixtures } from '../test/helpers/fixture-server.ts'
import { evaluatorModel, scriptedModel, textModel, type ScriptStep } from '../test/helpers/goal-scripted-model.ts'

interface Task {
  name: string
  path: string
  steps: ScriptStep[]
  text?: string
}

const TASKS: Task[] = [
  { name: 'news', path: 'sites/news/index.html', steps: [{ operation: 'CLICK', target: '42 comments' }, { operation: 'DONE' }] },
  {
    name: 'search',
    path: 'sites/search/index.html',
    text: 'dune',
    steps: [{ operation: 'TYPE_TEXT', target: /Search books/ }, { operation: 'SUBMIT', target: /Search books/ }, { operation: 'DONE' }],
  },
  {
    name: 'form',
    path: 'sites/form/index.html',
    steps: [
      { operation: 'SELECT', target: /Size/, option: 'Large' },
      { operation: 'CLICK', target: /Thick/ },
      { operation: 'CLICK', target: /Extra cheese/ },
      { operation: 'CLICK', target: 'Place order' },
      { operation: 'DONE' },
    ],
  },
  {
    name: 'spa',
    path: 'sites/spa/index.html',
    steps: [
      { operation: 'CLICK', target: 'About us' },
      { operation: 'CLICK', target: 'Contact' },
      { operation: 'WAIT' },
      { operation: 'CLICK', target: 'Home' },
      { operation: 'DONE' },
    ],
  },
  {
    name: 'shadow',
    path: 'sites/shadow/index.html',
    text: 'a@b.example',
    steps: [{ operation: 'TYPE_TEXT', target: /Email/ }, { operation: 'CLICK', target: 'Join' }, { operation: 'DONE' }],
  },
  { name: 'consent', path: 'sites/consent/index.html', steps: [{ operation: 'CLICK', target: 'Accept all' }, { operation: 'DONE' }] },
  {
    name: 'keys',
    path: 'sites/inputs/keys.html',
    steps: [
      { operation: 'PRESS', target: 'page', key: 'Escape' },
      { operation: 'CLICK', target: 'First name' },
      { operation: 'PRESS', target: 'Shelf', key: 'ArrowDown' },
      { operation: 'PRESS', target: 'Shelf', key: 'Enter' },
      { operation: 'DONE' },
    ],
  },
  {
    name: 'menus',
    path: 'sites/inputs/menus.html',
    steps: [{ operation: 'HOVER', target: 'Products' }, { operation: 'CLICK', target: 'Laptops' }, { operation: 'DONE' }],
  },
  {
    name: 'drag',
    path: 'sites/inputs/drag.html',
    steps: [{ operation: 'DRAG', target: 'Volume', to: 'right-50' }, { operation: 'DRAG', target: 'Item C', to: 'Item A' }, { operation: 'DONE' }],
  },
]

const flag = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const runs = Number(flag('runs') ?? 5)
// `--tasks=news,search`: only these, e.g. the tasks an older checkout also has, to compare like with like.
const only = flag('tasks')?.split(',')
const tasks = only ? TASKS.filter((task) => only.includes(task.name)) : TASKS
if (only && tasks.length !== only.length) throw new Error(`--tasks names a task that does not exist (tasks: ${TASKS.map((task) => task.name).join(', ')}).`)
// A decision model that takes this long, as a real one does (hundreds of milliseconds): what a
// screenshot taken during the request still costs a step. 0: the instant model, the worst case.
const modelMs = Number(flag('model-ms') ?? 0)
const slow = (steps: ScriptStep[]): ScriptStep[] =>
  modelMs > 0 ? steps.map((step) => ({ ...step, before: () => new Promise((resolve) => setTimeout(resolve, modelMs)) })) : steps

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const round = (value: number) => Math.round(value * 10) / 10

/** What one arm measures: the plain loop, or the loop recording every run. */
class Arm {
  stepMs: number[] = []
  observeMs: number[] = []
  actMs: number[] = []
  byOperation = new Map<string, number[]>()
  /** Goal wall time (the call, recording included) divided by its decisions. */
  wallMsPerDecision: number[] = []
  recordMs: number[] = []
  folderKb: number[] = []
  imageMs: number[] = []
  imageKb: number[] = []
  decisionRequests = 0
  decisions = 0
  textRequests = 0
  typed = 0
  steps = 0
  failures = 0
}

const server = await serveFixtures()
const browser = await launchChrome()
const recordings = await mkdtemp(join(tmpdir(), 'bench-steps-record-'))
const arms = { plain: new Arm(), record: new Arm(), vision: new Arm() }
try {
  for (let run = 0; run < runs; run++) {
    for (const task of tasks) {
      for (const [name, arm] of Object.entries(arms)) {
        const context = await browser.createBrowserContext()
        const page: Page = await context.newPage()
        await page.setViewport({ width: 1280, height: 800 })
        await page.goto(server.url(task.path))
        if (task.name === 'consent') await page.waitForFrame((frame) => frame.url().includes('/banner.html'))
        const scripted = scriptedModel(slow(task.steps))
        const writer = textModel(task.text ?? 'unused')
        const started = performance.now()
        const result: GoalResult = await agent(page).goal(`bench ${task.name}`, {
          decisions: scripted.model,
          text: writer,
          evaluator: evaluatorModel(1),
          waitMs: 0,
          // The checklist has its own benchmark; here every text request is a typed value.
          checklist: false,
          record: name === 'record' ? recordings : false,
          vision: name === 'vision',
        })
        arm.wallMsPerDecision.push((performance.now() - started) / Math.max(1, result.decisions))
        if (result.status !== 'success') {
          arm.failures += 1
          console.error(`${task.name} (${name}) run ${run + 1}: ${result.error?.message}`)
        }
        for (const entry of result.trace) {
          if (entry.imageMs !== undefined) arm.imageMs.push(entry.imageMs)
          if (entry.imageBytes !== undefined) arm.imageKb.push(entry.imageBytes / 1024)
          if (entry.actMs === undefined || entry.stale || entry.observeMs === undefined) continue
          const ms = entry.observeMs + entry.actMs
          arm.stepMs.push(ms)
          arm.observeMs.push(entry.observeMs)
          arm.actMs.push(entry.actMs)
          arm.byOperation.set(entry.operation, [...(arm.byOperation.get(entry.operation) ?? []), ms])
        }
        if (result.report) await readRecording(arm, dirname(result.report))
        arm.decisions += result.decisions
        arm.steps += result.steps
        arm.decisionRequests += scripted.seen.length
        arm.textRequests += writer.doGenerateCalls.length
        arm.typed += result.trace.filter((entry) => entry.text !== undefined).length
        await context.close()
      }
    }
  }
} finally {
  await browser.close()
  await server.close()
  await rm(recordings, { recursive: true, force: true })
}

async function readRecording(arm: Arm, folder: string): Promise<void> {
  const lines = (await readFile(join(folder, 'run.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
  for (const line of lines) if (line.kind === 'step') arm.recordMs.push(line.timing.recordMs)
  let bytes = 0
  for (const file of await readdir(folder)) bytes += (await stat(join(folder, file))).size
  arm.folderKb.push(bytes / 1024)
}

function summary(arm: Arm) {
  return {
    failures: arm.failures,
    steps: arm.steps,
    medianStepMs: round(median(arm.stepMs)),
    medianStepMsWithoutWait: median([...arm.byOperation].filter(([operation]) => operation !== 'WAIT').flatMap(([, values]) => values)),
    medianObserveMs: median(arm.observeMs),
    medianActMs: median(arm.actMs),
    p90StepMs: Math.round([...arm.stepMs].sort((a, b) => a - b)[Math.floor(arm.stepMs.length * 0.9)]!),
    medianByOperation: Object.fromEntries([...arm.byOperation].map(([operation, values]) => [operation, Math.round(median(values))])),
    medianWallMsPerDecision: round(median(arm.wallMsPerDecision)),
    // Each step of the loop is one decision: exactly one decision request each.
    decisionRequestsPerStep: Math.round((arm.decisionRequests / arm.decisions) * 1000) / 1000,
    // TYPE_TEXT adds one text request for the value.
    textRequestsPerTypeText: Math.round((arm.textRequests / Math.max(1, arm.typed)) * 1000) / 1000,
  }
}

const plain = summary(arms.plain)
const recorded = summary(arms.record)
const seeing = summary(arms.vision)
console.log(
  JSON.stringify(
    {
      runs,
      tasks: tasks.length,
      modelMs,
      ...plain,
      record: {
        ...recorded,
        // What a step waited for its screenshot and spent writing its line.
        medianRecordMsPerStep: round(median(arms.record.recordMs)),
        // The goal's wall time per decision, recording minus plain: screenshots, lines, the final page and report.html.
        addedWallMsPerDecision: round(recorded.medianWallMsPerDecision - plain.medianWallMsPerDecision),
        medianRunFolderKb: Math.round(median(arms.record.folderKb)),
      },
      vision: {
        ...seeing,
        // Capture (started when the page was observed) to badged JPEG, as far as the decision waited.
        medianImageMs: round(median(arms.vision.imageMs)),
        medianImageKb: Math.round(median(arms.vision.imageKb)),
        maxImageKb: Math.round(Math.max(...arms.vision.imageKb)),
        addedWallMsPerDecision: round(seeing.medianWallMsPerDecision - plain.medianWallMsPerDecision),
      },
    },
    null,
    2,
  ),
)
