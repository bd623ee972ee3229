import type { Page } from 'puppeteer-core'
import type { Rules } from '../../types/index.d.ts'
import { callInFrame } from '../browser/page-script.ts'
import { UsageError } from '../errors.ts'
import type { EngineOutcome } from '../page/rules-engine.ts'
import { validateRules } from './validate-rules.ts'

/** One `evaluate` of the engine in the main frame's isolated world. Rules must already be valid in shape. */
export function runEngineInPage(page: Page, rules: Rules): Promise<EngineOutcome> {
  return callInFrame(page.mainFrame(), 'rulesEngine', rules)
}

/** The error for a selector the browser refused, naming the field. */
export function badSelectorError(outcome: Extract<EngineOutcome, { ok: false }>): UsageError {
  return new UsageError(
    `Invalid rule for field "${outcome.field}": the selector ${JSON.stringify(outcome.selector)} is not valid CSS (${outcome.message}).`,
  )
}

/**
 * Runs rules with the built-in engine and gives the data. Throws a UsageError for invalid rules
 * before anything is read; anything else thrown comes from the page (closed, navigated away).
 */
export async function applyRules(page: Page, rules: Rules): Promise<unknown> {
  validateRules(rules)
  const outcome = await runEngineInPage(page, rules)
  if (!outcome.ok) throw badSelectorError(outcome)
  return outcome.data
}
