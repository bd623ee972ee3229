import { randomBytes } from 'node:crypto'
import { appendFile, mkdir, unlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Page } from 'puppeteer-core'
import type { Accuracy } from '../../types/index.d.ts'
import type { Observation } from '../collector/observation.ts'
import type { ModelCallRecord } from '../base/ledger.ts'
import { log } from '../base/log.ts'
import type { RecordSettings } from './record-settings.ts'
import { renderReport } from './report-html.ts'
import { REPORT_FILE, RUN_FILE, type ResultLine, type RunLine } from './run-lines.ts'
import { captureViewport, type Shot } from '../browser/viewport-screenshot.ts'
import { stepLine, type RecordedStepInput } from './step-line.ts'

// One run folder of a recording: created when the run starts, a screenshot per step (of the page it was
// decided on, taken by its goal listener while the model is asked, awaited only before input), a run.jsonl
// line per step as each ends, and when the run ends the final screenshot, the result line and report.html.
// Writing never fails or holds up a run: errors are logged and the recording goes on without them. The
// first failure of a run is also a console warning: a recording asked for and not made must not pass
// unnoticed, as the debug log alone would let it.

/** Characters of a goal in the folder name: enough to tell runs apart in a listing. */
const NAME_WORDS_LIMIT = 40

/** What the caller tells of a finished run; the page's address comes from the final screenshot when not given. */
export type FinishedRun = Omit<ResultLine, 'kind' | 'startedAt' | 'endedAt' | 'screenshot' | 'viewport' | 'url' | 'title'> & { url?: string; title?: string }

export class RunRecorder {
  /** Absolute path of the run folder. */
  readonly folder: string
  readonly #settings: RecordSettings
  readonly #page: Page
  readonly #made: Promise<boolean>
  readonly #lines: RunLine[] = []
  #writes: Promise<unknown> = Promise.resolve()
  #steps = 0
  #current: Promise<Shot | undefined> | undefined
  /** Each observation's screenshot: a step ends (and is written) after the next observation was taken. */
  readonly #byObservation = new WeakMap<Observation, Promise<Shot | undefined>>()
  #callsSeen = 0
  #waitedMs = 0
  #warned = false
  readonly #startedAt = new Date()

  constructor(settings: RecordSettings, page: Page, call: 'goal' | 'extract', subject: string | undefined) {
    this.#settings = settings
    this.#page = page
    this.folder = resolve(settings.dir, folderName(this.#startedAt, call, subject))
    this.#made = mkdir(this.folder, { recursive: true }).then(
      () => true,
      (error: unknown) => {
        this.#warn(`cannot create the run folder ${this.folder}: ${messageOf(error)}. Nothing of this run is recorded`)
        return false
      },
    )
  }

  /** The screenshot being taken of the page as `observation` shows it; the step decided on it waits for it before input. */
  capture(observation: Observation, taken: Promise<Shot | undefined>): void {
    this.#current = taken
    this.#byObservation.set(observation, taken)
  }

  /** Waits until the screenshot of the page about to be acted on is taken: it shows the page before the input. */
  async beforeInput(): Promise<void> {
    const started = performance.now()
    await this.#current
    this.#waitedMs += performance.now() - started
  }

  /** A step ended: its line, with the model calls made since the previous one. */
  step(step: RecordedStepInput, calls: readonly ModelCallRecord[]): void {
    const capture = this.#byObservation.get(step.observation)
    const started = performance.now()
    const fresh = calls.slice(this.#callsSeen)
    this.#callsSeen = calls.length
    // What the step spent on its recording: the wait for its screenshot, and this; the writing is not waited on.
    const recordMs = this.#waitedMs + (performance.now() - started)
    this.#waitedMs = 0
    const file = `step-${String(++this.#steps).padStart(3, '0')}.jpg`
    this.#queue(async () => {
      const shot = await capture
      // With vision, the badged image the model saw is the step's screenshot.
      const image = step.decision.image?.jpeg ?? shot?.jpeg
      if (image) await writeFile(join(this.folder, file), image)
      const line = stepLine(step, {
        calls: fresh,
        typedValues: this.#settings.typedValues,
        screenshot: image ? file : undefined,
        viewport: shot?.viewport,
        recordMs,
      })
      this.#lines.push(line)
      await appendFile(join(this.folder, RUN_FILE), `${JSON.stringify(line)}\n`)
    })
  }

  /** The run ended: the final page, the result line and the report. Resolves the report's path, or undefined when the report could not be written. */
  async finish(result: FinishedRun): Promise<string | undefined> {
    const shot = await captureViewport(this.#page)
    const line: ResultLine = {
      kind: 'result',
      ...result,
      url: result.url ?? shot?.url ?? '',
      title: result.title ?? shot?.title ?? '',
      startedAt: this.#startedAt.toISOString(),
      endedAt: new Date().toISOString(),
    }
    if (shot) {
      line.screenshot = 'final.jpg'
      line.viewport = shot.viewport
      this.#queue(() => writeFile(join(this.folder, 'final.jpg'), shot.jpeg))
    }
    this.#queue(async () => {
      this.#lines.push(line)
      await appendFile(join(this.folder, RUN_FILE), `${JSON.stringify(line)}\n`)
    })
    return this.#writeReport()
  }

  /** The evaluator's verdict, once `profiling()` has it: the result line and the report are written again. */
  async evaluated(accuracy: Accuracy): Promise<void> {
    this.#queue(async () => {
      const last = this.#lines.at(-1)
      if (last?.kind !== 'result') return
      last.accuracy = accuracy
      await writeFile(join(this.folder, RUN_FILE), this.#lines.map((line) => `${JSON.stringify(line)}\n`).join(''))
    })
    await this.#writeReport()
  }

  /** Resolves the report's path once it is written whole, or undefined when it could not be. */
  async #writeReport(): Promise<string | undefined> {
    const path = join(this.folder, REPORT_FILE)
    let written = false
    this.#queue(async () => {
      try {
        await writeFile(path, renderReport(this.#lines))
        written = true
      } catch (error) {
        // A full disk leaves a truncated file behind, which would pass for the report.
        await unlink(path).catch(() => {})
        throw error
      }
    })
    await this.#writes
    return written ? path : undefined
  }

  /** Runs `write` after every earlier one, once the folder exists; a failure is logged, never thrown. */
  #queue(write: () => Promise<unknown>): void {
    this.#writes = this.#writes.then(async () => {
      if (!(await this.#made)) return
      try {
        await write()
      } catch (error) {
        this.#warn(`writing to ${this.folder} failed: ${messageOf(error)}. The recording of this run is incomplete`)
      }
    })
  }

  /** Every failure is logged; the run's first is also warned about on stderr. */
  #warn(message: string): void {
    log('record: %s', message)
    if (this.#warned) return
    this.#warned = true
    console.warn(`puppeteer-agent: record: ${message}.`)
  }
}

/** `2026-11-30T22-41-07-123Z-goal-search-for-dune-3fa2`: sorted by time, readable, unique. */
function folderName(started: Date, call: 'goal' | 'extract', subject: string | undefined): string {
  const stamp = started.toISOString().replace(/[:.]/g, '-')
  const words = (subject ?? '')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, NAME_WORDS_LIMIT)
    .replace(/-+$/, '')
  return [stamp, call, words, randomBytes(2).toString('hex')].filter(Boolean).join('-')
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
