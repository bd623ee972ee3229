import { constants } from 'node:os'
import { resolve } from 'node:path'
import type { Browser, Page } from 'puppeteer-core'
import { CACHE_ENV } from '../cache/cache-settings.ts'
import { toError } from '../errors.ts'
import { EXIT } from './cli-error.ts'
import { goto, type GotoOptions, type GotoResult } from './goto.ts'
import { loadScript } from './load-script.ts'
import { openBrowser, type BrowserSession } from './open-browser.ts'
import { describeError, toJson } from './output.ts'
import type { ExecArgs, ScriptArgv } from './parse-args.ts'

/** What the exported function receives, as with browserless exec. */
export interface ExecContext {
  page: Page
  browser: Browser
  browserless: { goto(page: Page, options: GotoOptions): Promise<GotoResult> }
  argv: ScriptArgv
}

export interface ExecIO {
  write(text: string): Promise<void>
  writeError(text: string): Promise<void>
  env: NodeJS.ProcessEnv
  /** Ends the process at once; used when a signal arrives while the script is still running. */
  exit(code: number): never
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * Loads the script, opens the browser and a page, runs the script and prints what it returns.
 * Resolves the exit code: 0 done, 1 the script threw. The browser is closed (or disconnected) on
 * every path, a signal included; setup errors (CliError) propagate to the caller.
 */
export async function runExec(args: ExecArgs, io: ExecIO): Promise<number> {
  applyCache(args.cache)
  const script = await loadScript(args.file)
  let session: Promise<BrowserSession> | undefined
  const stopWatching = watchSignals(async (signal) => {
    await io.writeError(`\nReceived ${signal}: closing the browser.\n`)
    await session?.then((opened) => opened.close(), () => {})
    io.exit(128 + constants.signals[signal])
  })
  try {
    session = openBrowser({ headless: args.headless, wsEndpoint: args.wsEndpoint, env: io.env })
    const { browser, page, close } = await session
    try {
      const context: ExecContext = { page, browser, browserless: { goto: reportingGoto(io) }, argv: args.argv }
      const value = await script(context)
      const json = toJson(value)
      if (json !== undefined) await io.write(`${json}\n`)
      return EXIT.ok
    } catch (thrown) {
      await io.writeError(`${describeError(toError(thrown), Boolean(io.env.DEBUG))}\n`)
      return EXIT.scriptFailed
    } finally {
      await close()
    }
  } finally {
    stopWatching()
  }
}

/**
 * The library takes the cache directory from the environment when an agent's options leave `cache`
 * unset, so the flag reaches scripts written without it, and processes they start. Set before the
 * script loads: it may make its agents at top level. The directory is made absolute in case the
 * script changes directory.
 */
function applyCache(cache: ExecArgs['cache']): void {
  if (cache === false) delete process.env[CACHE_ENV]
  else if (cache !== undefined) process.env[CACHE_ENV] = resolve(cache)
}

// The script goes on after a slow or failed load; the user still hears about it.
function reportingGoto(io: ExecIO): ExecContext['browserless']['goto'] {
  return async (page, options) => {
    const result = await goto(page, options)
    if (result.error) {
      await io.writeError(`Loading ${options.url} did not finish (${result.error.message}); going on with what loaded.\n`)
    }
    return result
  }
}

function watchSignals(onSignal: (signal: (typeof SIGNALS)[number]) => Promise<void>): () => void {
  let handled = false
  const handlers = SIGNALS.map((signal) => {
    const handler = () => {
      if (handled) return
      handled = true
      void onSignal(signal)
    }
    process.on(signal, handler)
    return () => process.off(signal, handler)
  })
  return () => handlers.forEach((off) => off())
}
