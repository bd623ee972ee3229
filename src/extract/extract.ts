import type { Page } from 'puppeteer-core'
import type { ExtractResult, Rules } from '../../types/index.d.ts'
import { toError } from '../errors.ts'
import { mergeSettings, type Settings } from '../options.ts'
import { createExtractProfiling } from '../profiling/extract-profiling.ts'
import { createLedger, type Ledger } from '../profiling/ledger.ts'
import { badSelectorError, runRulesEngine } from './apply-rules.ts'
import type { EngineOutcome } from './rules-engine.ts'
import { parseExtractArgs } from './extract-args.ts'
import { checkFillable, needsModel } from './merge-rules.ts'
import { tryWrittenRules, writeRules } from './rule-writer.ts'
import { validateRules } from './validate-rules.ts'

/**
 * `page.extract(...)`. Rejects with a UsageError when called wrong, before anything runs; anything
 * that fails while running resolves `{ status: 'error', error, profiling }`.
 */
export async function extract(page: Page, args: unknown[], defaults: Partial<Settings>): Promise<ExtractResult> {
  const call = parseExtractArgs(args)
  const settings = mergeSettings(defaults, call.options)
  const engine = settings.extractor
  if (call.instruction === undefined) {
    // A custom engine has its own rule format; only the built-in one's rules are checked here.
    if (!engine) validateRules(call.rules)
    return runRules(page, call.rules as Rules, settings)
  }
  // Rules passed with an instruction are always checked: this package completes them.
  if (call.rules !== undefined) {
    validateRules(call.rules)
    checkFillable(call.rules)
    if (!needsModel(call.rules)) return runRules(page, call.rules, settings)
  }
  return runWrittenRules(page, call.instruction, call.rules as Rules | undefined, settings)
}

/** Rules that are complete: one run of the engine, no model. */
async function runRules(page: Page, rules: Rules, settings: Settings): Promise<ExtractResult> {
  const run = startRun()
  run.rules = rules
  const engine = settings.extractor
  let outcome: EngineOutcome | undefined
  let data: unknown
  try {
    settings.signal?.throwIfAborted()
    if (engine) data = await engine(page, rules)
    else outcome = await runRulesEngine(page, rules)
  } catch (error) {
    return run.failed(error)
  }
  if (outcome) {
    // A selector the browser refuses is the caller's mistake, found before anything was read.
    if (!outcome.ok) throw badSelectorError(outcome)
    data = outcome.data
  }
  return run.succeeded(data)
}

/** The model writes the rules (or the missing selectors), they are tried on the page, then they run. */
async function runWrittenRules(page: Page, instruction: string, userRules: Rules | undefined, settings: Settings): Promise<ExtractResult> {
  const run = startRun()
  try {
    settings.signal?.throwIfAborted()
    const rules = await writeRules({ page, instruction, rules: userRules, settings, ledger: run.ledger })
    run.rules = rules
    const tried = await tryWrittenRules(page, rules)
    const engine = settings.extractor
    return run.succeeded(engine ? await engine(page, rules) : tried)
  } catch (error) {
    return run.failed(error)
  }
}

interface Run {
  ledger: Ledger
  /** The rules that ran, for `profiling()`; set once they are known. */
  rules: Rules | undefined
  succeeded(data: unknown): ExtractResult
  failed(error: unknown): ExtractResult
}

function startRun(): Run {
  const started = performance.now()
  const run: Run = {
    ledger: createLedger(),
    rules: undefined,
    succeeded: (data) => ({ status: 'success', data, profiling: profiling('success') }),
    failed: (error) => ({ status: 'error', error: toError(error), profiling: profiling('error') }),
  }
  const profiling = (status: 'success' | 'error') =>
    createExtractProfiling({ ledger: run.ledger, rules: run.rules, totalMs: performance.now() - started, status })
  return run
}
