import { statSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'puppeteer-core'
import { CliError, EXIT } from './cli-error.ts'
import type { GotoOptions, GotoResult } from './goto.ts'
import type { ScriptArgv } from './parse-args.ts'

/** What the exported function receives, as with browserless exec. */
export interface ExecContext {
  page: Page
  browser: Browser
  browserless: { goto(page: Page, options: GotoOptions): Promise<GotoResult> }
  argv: ScriptArgv
}

export type ExecScript = (context: ExecContext) => unknown

/**
 * Imports the script and returns the function it exports: `module.exports = fn` (CommonJS, as for
 * browserless exec) or `export default fn` (ESM). A missing file or a module without a function is
 * bad usage; an error thrown while the module loads is the script's own and propagates.
 */
export async function loadScript(file: string, cwd = process.cwd()): Promise<ExecScript> {
  const path = resolve(cwd, file)
  if (!isFile(path)) throw new CliError(`No script file at ${path} (from ${JSON.stringify(file)}).`, EXIT.usage)
  const loaded = (await import(pathToFileURL(path).href)) as Record<string, unknown>
  const fn = exportedFunction(loaded)
  if (!fn) {
    const names = Object.keys(loaded).join(', ') || 'nothing'
    throw new CliError(
      `${file} must export a function (module.exports = async ({ page }) => … or export default …); it exports ${names}.`,
      EXIT.usage,
    )
  }
  return fn
}

function exportedFunction(loaded: Record<string, unknown>): ExecScript | undefined {
  const main = loaded.default
  if (typeof main === 'function') return main as ExecScript
  // A CommonJS file compiled from ESM keeps its function under exports.default.
  const nested = (main as Record<string, unknown> | undefined)?.default
  return typeof nested === 'function' ? (nested as ExecScript) : undefined
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}
