import type { Page } from 'puppeteer-core'
import type { CacheStatus, ExtractResult, Rules } from '../../types/index.d.ts'
import { heldData, rulesCache } from '../cache/rules-cache.ts'
import { clip } from '../clip.ts'
import { RunRecorder, type FinishedRun } from '../record/run-recorder.ts'
import { lockPage, type PageLock } from '../call/page-lock.ts'
import { watchRun, type RunSignal } from '../call/run-signal.ts'
import { toError, UsageError } from '../errors.ts'
import { LOCAL_PROVIDER } from '../local/decision-model.ts'
import { resolveLanguageModel } from '../models/resolve-model.ts'
import { mergeSettings, type Settings } from '../options.ts'
import { createExtractProfiling } from '../profiling/extract-profiling.ts'
import { createLedger, type Ledger } from '../base/ledger.ts'
import { badSelectorError, runEngineInPage } from './apply-rules.ts'
import type { EngineOutcome } from '../page/rules-engine.ts'
import { pinDocument, type DocumentPin } from './document-pin.ts'
import { parseExtractArgs, type ExtractCall } from './extract-args.ts'
import { checkFillable, needsModel } from './merge-rules.ts'
import { writeRules } from './rule-writer.ts'
import { validateRules } from './validate-rules.ts'

/**
 * `page.extract(...)`. Rejects with a UsageError when called wrong (another agent call running on the
 * page included), before anything runs; anything that fails while running resolves
 * `{ status: 'error', error, profiling }`, at once when the signal aborts or the page goes away.
 */
export async function extract(page: Page, args: unknown[], defaults: Partial<Settings>): Promise<ExtractResult> {
  const call = parseExtractArgs(args)
  const settings = mergeSettings(defaults, call.options)
  const written = needsRuleWriter(call, settings)
  // With a cache, a hit needs no model: the check waits for a miss (extractWithWrittenRules).
  if (written && !settings.cache) checkWritesRules(settings)
  const lock = lockPage(page, 'extraction')
  const watch = watchRun(page, settings.signal)
  // Model requests end with the run.
  const scope: Scope = { page, settings: { ...settings, signal: watch.signal }, watch, lock }
  const recorder = settings.record ? new RunRecorder(settings.record, page, 'extract', call.instruction) : undefined
  try {
    const result = written
      ? await extractWithWrittenRules(scope, call.instruction!, call.rules as Rules | undefined)
      : await extractWithRules(scope, call.rules as Rules)
    if (recorder) await recordExtraction(recorder, result, call.instruction)
    return result
  } finally {
    watch.dispose()
    lock.release()
  }
}

/** Data a recording keeps: enough to check a run by eye, bounded for a page of thousands of rows. */
const RECORDED_DATA_LIMIT = 20_000

/** The extraction's recording: the page it read, the data and the rules; `report` is set on the result. */
async function recordExtraction(recorder: RunRecorder, result: ExtractResult, instruction: string | undefined): Promise<void> {
  const { rules, cost, timing, cache } = await result.profiling()
  const line: FinishedRun = { call: 'extract', status: result.status, steps: 0, decisions: 0, cost, timing }
  if (instruction !== undefined) line.goal = instruction
  if (result.status === 'error') line.reason = result.error.message
  else line.data = clip(JSON.stringify(result.data, null, 2) ?? 'undefined', RECORDED_DATA_LIMIT)
  if (rules) line.rules = JSON.stringify(rules, null, 2)
  if (cache) line.cache = cache
  const report = await recorder.finish(line)
  if (report) result.report = report
}

/** What one extraction runs with. */
interface Scope {
  page: Page
  settings: Settings
  watch: RunSignal
  lock: PageLock
}

/** Checks the rules the caller passed (throwing a UsageError); true when a model has to write some. */
function needsRuleWriter(call: ExtractCall, settings: Settings): boolean {
  if (call.instruction === undefined) {
    // A custom engine has its own rule format; only the built-in one's rules are checked here.
    if (!settings.extractor) validateRules(call.rules)
    return false
  }
  if (call.rules === undefined) return true
  // Rules passed with an instruction are always checked: this package completes them.
  validateRules(call.rules)
  checkFillable(call.rules)
  return needsModel(call.rules)
}

/**
 * The offline `'local'` text model refuses every request for rules (src/local/language-model.ts), so
 * an instruction with it could only fail after the outline was taken (about 270 ms of waiting for
 * the page to settle): it is refused before any page work, or with a cache on a miss, before the
 * outline. It is found by its provider, so an instance of it passed as `text` is refused too.
 */
function checkWritesRules(settings: Settings): void {
  if (resolveLanguageModel(settings.text).provider !== LOCAL_PROVIDER) return
  throw new UsageError(
    "The offline 'local' text model cannot write extraction rules, so extract(instruction) cannot run with it: " +
      'pass complete rules (every field with a selector), or a real model in `text`.',
  )
}

/**
 * A custom engine, run within the extraction's lock (so that it may call agent.applyRules) and
 * raced with the run's signal like every other call on the page.
 */
function runExtractor(scope: Scope, rules: Rules): Promise<unknown> {
  const engine = scope.settings.extractor!
  return scope.watch.race(new Promise((resolve) => resolve(scope.lock.within(() => engine(scope.page, rules)))))
}

/** Rules that are complete: one run of the engine, no model. */
async function extractWithRules(scope: Scope, rules: Rules): Promise<ExtractResult> {
  const { page, settings, watch } = scope
  const run = startRun()
  run.rules = rules
  let outcome: EngineOutcome | undefined
  let data: unknown
  try {
    watch.signal.throwIfAborted()
    if (settings.extractor) data = await runExtractor(scope, rules)
    else outcome = await watch.race(runEngineInPage(page, rules))
  } catch (error) {
    return run.failed(await watch.explain(error))
  }
  if (outcome) {
    // A selector the browser refuses is the caller's mistake, found before anything was read.
    if (!outcome.ok) throw badSelectorError(outcome)
    data = outcome.data
  }
  return run.succeeded(data)
}

/**
 * The model writes the rules (or the missing selectors), they are tried on the page, then they run.
 * With a cache, rules stored for this instruction and page template run first, and the model is
 * asked only when they no longer hold; rules it wrote replace the entry once the extraction succeeded.
 * The document the outline (or the stored rules' read) is taken from is pinned: data read from any
 * other document is an error.
 */
async function extractWithWrittenRules(scope: Scope, instruction: string, userRules: Rules | undefined): Promise<ExtractResult> {
  const { page, settings, watch } = scope
  const run = startRun()
  let pin: DocumentPin | undefined
  try {
    watch.signal.throwIfAborted()
    pin = await watch.race(pinDocument(page))
    const cache = settings.cache ? rulesCache(settings.cache.store, { instruction, skeleton: userRules, url: page.url() }, validateRules) : undefined
    if (cache) run.cache = 'miss'
    const stored = cache && (await watch.race(cache.read()))
    const replayed = stored && heldData(stored, await watch.race(runEngineInPage(page, stored.rules)))
    let tried: Record<string, unknown>
    if (replayed) {
      run.rules = stored.rules
      run.cache = 'hit'
      tried = replayed
    } else {
      // Without a cache this was checked before any page work; with one, a miss is a run that fails.
      if (cache) checkWritesRules(settings)
      const written = await watch.race(
        writeRules({ page, instruction, rules: userRules, settings, ledger: run.ledger, noteRules: (rules) => (run.rules = rules) }),
      )
      run.rules = written.rules
      tried = written.data
    }
    const rules = run.rules
    const data = settings.extractor ? await runExtractor(scope, rules) : tried
    await watch.race(pin.check())
    if (cache && !replayed) {
      // Written only once the read is known to come from the pinned document; an entry replaced did not hold.
      await watch.race(cache.save(rules, tried))
      if (stored) run.cache = 'healed'
    }
    return run.succeeded(data)
  } catch (error) {
    const explained = await watch.explain(error)
    // Written rules that failed on another document (matching nothing there, say) failed because it changed.
    const changed = pin && run.rules && !watch.signal.aborted ? await watch.race(pin.check()).then(() => undefined, (reason: unknown) => reason) : undefined
    return run.failed(changed ?? explained)
  }
}

interface Run {
  ledger: Ledger
  /** The rules that ran, for `profiling()`; set once they are known. */
  rules: Rules | undefined
  /** What the replay cache did, for `profiling()`; undefined when it is off. */
  cache: CacheStatus | undefined
  succeeded(data: unknown): ExtractResult
  failed(error: unknown): ExtractResult
}

function startRun(): Run {
  const started = performance.now()
  const run: Run = {
    ledger: createLedger(),
    rules: undefined,
    cache: undefined,
    succeeded: (data) => ({ status: 'success', data, profiling: profiling('success') }),
    failed: (error) => ({ status: 'error', error: toError(error), profiling: profiling('error') }),
  }
  const profiling = (status: 'success' | 'error') =>
    createExtractProfiling({ ledger: run.ledger, rules: run.rules, cache: run.cache, totalMs: performance.now() - started, status })
  return run
}
