// Time of a goal step outside the model: observe, guard, act and settle, on local fixture sites with
// an instant scripted decision model. Prints the median per step (WAIT's pause excluded) and the
// model requests per step. Run: npm run bench:steps [-- --runs=5]
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
]

const runs = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice('--runs='.length) ?? 5)

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const server = await serveFixtures()
const browser = await launchChrome()
const stepMs: number[] = []
const observeMs: number[] = []
const actMs: number[] = []
const byOperation = new Map<string, number[]>()
let decisionRequests = 0
let decisions = 0
let textRequests = 0
let typed = 0
let steps = 0
let failures = 0
try {
  for (let run = 0; run < runs; run++) {
    for (const task of TASKS) {
      const context = await browser.createBrowserContext()
      const page: Page = await context.newPage()
      await page.setViewport({ width: 1000, height: 800 })
      await page.goto(server.url(task.path))
      if (task.name === 'consent') await page.waitForFrame((frame) => frame.url().includes('/banner.html'))
      const scripted = scriptedModel(task.steps)
      const writer = textModel(task.text ?? 'unused')
      const result: GoalResult = await agent(page).goal(`bench ${task.name}`, {
        decisions: scripted.model,
        text: writer,
        evaluator: evaluatorModel(1),
        waitMs: 0,
      })
      if (result.status !== 'success') {
        failures += 1
        console.error(`${task.name} run ${run + 1}: ${result.error?.message}`)
      }
      for (const entry of result.trace) {
        if (entry.actMs === undefined || entry.stale || entry.observeMs === undefined) continue
        const ms = entry.observeMs + entry.actMs
        stepMs.push(ms)
        observeMs.push(entry.observeMs)
        actMs.push(entry.actMs)
        byOperation.set(entry.operation, [...(byOperation.get(entry.operation) ?? []), ms])
      }
      decisions += result.decisions
      steps += result.steps
      decisionRequests += scripted.seen.length
      textRequests += writer.doGenerateCalls.length
      typed += result.trace.filter((entry) => entry.text !== undefined).length
      await context.close()
    }
  }
} finally {
  await browser.close()
  await server.close()
}

console.log(
  JSON.stringify(
    {
      runs,
      tasks: TASKS.length,
      failures,
      steps,
      medianStepMs: Math.round(median(stepMs) * 10) / 10,
      medianStepMsWithoutWait: median([...byOperation].filter(([operation]) => operation !== 'WAIT').flatMap(([, values]) => values)),
      medianObserveMs: median(observeMs),
      medianActMs: median(actMs),
      p90StepMs: Math.round([...stepMs].sort((a, b) => a - b)[Math.floor(stepMs.length * 0.9)]!),
      medianByOperation: Object.fromEntries([...byOperation].map(([operation, values]) => [operation, Math.round(median(values))])),
      // Each step of the loop is one decision: exactly one decision request each.
      decisionRequestsPerStep: Math.round((decisionRequests / decisions) * 1000) / 1000,
      // TYPE_TEXT adds one text request for the value.
      textRequestsPerTypeText: Math.round((textRequests / Math.max(1, typed)) * 1000) / 1000,
    },
    null,
    2,
  ),
)
