import type { Page } from 'puppeteer-core'
import type { ExtractResult, Rules } from '../../types/index.d.ts'
import { toError, UsageError } from '../errors.ts'
import { mergeSettings, type Settings } from '../options.ts'
import { createExtractProfiling } from '../profiling/extract-profiling.ts'
import { createLedger, type Ledger } from '../profiling/ledger.ts'
import { badSelectorError, runRulesEngine } from './apply-rules.ts'
import { parseExtractArgs } from './extract-args.ts'
import { validateRules } from './validate-rules.ts'

/**
 * `page.extract(...)`. Rejects with a UsageError when called wrong, before anything runs; anything
 * that fails while running resolves `{ status: 'error', error, profiling }`.
 */
export async function extract(page: Page, args: unknown[], defaults: Partial<Settings>): Promise<ExtractResult> {
  const call = parseExtractArgs(args)
  const settings = mergeSettings(defaults, call.options)
  if (call.instruction !== undefined) {
    throw new UsageError('page.extract(instruction) is not available yet: pass rules with selectors.')
  }
  const engine = settings.extractor
  // A custom engine has its own rule format; only the built-in one's rules are checked here.
  if (!engine) validateRules(call.rules)
  const rules = call.rules as Rules
  const run = startRun(rules)
  let data: unknown
  try {
    settings.signal?.throwIfAborted()
    if (engine) {
      data = await engine(page, rules)
    } else {
      const outcome = await runRulesEngine(page, rules)
      if (!outcome.ok) throw badSelectorError(outcome)
      data = outcome.data
    }
  } catch (error) {
    if (error instanceof UsageError && !engine) throw error
    return run.failed(error)
  }
  return run.succeeded(data)
}

interface Run {
  ledger: Ledger
  succeeded(data: unknown): ExtractResult
  failed(error: unknown): ExtractResult
}

function startRun(rules: Rules | undefined): Run {
  const started = performance.now()
  const ledger = createLedger()
  const profiling = () => createExtractProfiling({ ledger, rules, totalMs: performance.now() - started })
  return {
    ledger,
    succeeded: (data) => ({ status: 'success', data, profiling: profiling() }),
    failed: (error) => ({ status: 'error', error: toError(error), profiling: profiling() }),
  }
}
