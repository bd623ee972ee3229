import { constants } from 'node:os'
import { resolve } from 'node:path'
import type { Browser } from 'puppeteer-core'
import { CACHE_ENV } from '../cache/cache-settings.ts'
import { RECORD_ENV } from '../record/record-settings.ts'
import { reportsSince } from './recorded-reports.ts'
import { toError } from '../errors.ts'
import { EXIT } from './cli-error.ts'
import { goto } from './goto.ts'
import { loadScript, type ExecContext } from './load-script.ts'
import { openBrowser, type BrowserSession } from './open-browser.ts'
import { describeError, toJson } from './output.ts'
import type { ExecArgs } from './parse-args.ts'

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
 * Resolves the exit code: 0 done, 1 the script threw (or was left waiting on a browser that went
 * away). The browser is closed (or disconnected) on every path, a signal included; a failure after
 * the browser disconnected says so; setup errors (CliError) propagate to the caller.
 */
export async function runExec(args: ExecArgs, io: ExecIO): Promise<number> {
  applyDirectory(CACHE_ENV, args.cache)
  applyDirectory(RECORD_ENV, args.record)
  const recording = process.env[RECORD_ENV]?.trim()
  const started = Date.now()
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
    const gone = watchDisconnect(browser, args.wsEndpoint)
    try {
      const context: ExecContext = { page, browser, browserless: { goto: reportingGoto(io) }, argv: args.argv }
      const value = await Promise.race([script(context), gone.stranded])
      const json = toJson(value)
      if (json !== undefined) await io.write(`${json}\n`)
      return EXIT.ok
    } catch (thrown) {
      await io.writeError(`${describeError(toError(thrown), Boolean(io.env.DEBUG))}\n`)
      // Puppeteer's errors for a lost browser ("Target closed", "frame got detached") do not say so.
      if (gone.message && !gone.told) await io.writeError(`puppeteer-agent: ${gone.message}\n`)
      return EXIT.scriptFailed
    } finally {
      gone.dispose()
      await close()
      // The script's runs, whether it succeeded or not: a failed run is the one worth looking at.
      if (recording) for (const report of await reportsSince(recording, started)) await io.writeError(`Report: ${report}\n`)
    }
  } finally {
    stopWatching()
  }
}

/**
 * The library takes the cache and recording directories from the environment when an agent's
 * options leave `cache` or `record` unset, so the flags reach scripts written without them, and
 * processes they start. Set before the script loads: it may make its agents at top level. The
 * directory is made absolute in case the script changes directory.
 */
function applyDirectory(variable: string, flag: string | false | undefined): void {
  if (flag === false) delete process.env[variable]
  else if (flag !== undefined) process.env[variable] = resolve(flag)
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

/**
 * Watches the browser while the script runs. Once it has disconnected (a remote browser closed or
 * recycled by its pool, a crash, the connection dropped), `message` says so, for a script that then
 * fails: Puppeteer's own errors for it ("Target closed", "Navigating frame was detached") do not.
 * A script left awaiting something only the browser could have answered (an event, a response)
 * would otherwise end with Node's "unsettled top-level await" warning and exit code 13 once nothing
 * else keeps the process busy: `stranded` rejects then, with `message`, and `told` is set.
 */
function watchDisconnect(browser: Browser, wsEndpoint: string | undefined): DisconnectWatch {
  let message: string | undefined
  let told = false
  let onBeforeExit = () => {}
  const stranded = new Promise<never>((_, reject) => {
    // Emitted only once the event loop has emptied, which an open browser connection prevents.
    onBeforeExit = () => {
      if (!message || told) return
      told = true
      reject(new Error(`${message} The script was still waiting, and nothing is left that could answer it.`))
    }
  })
  const onDisconnected = () => {
    message = wsEndpoint
      ? `The remote browser at ${wsEndpoint} disconnected during the script: it was closed or crashed, or the connection to it dropped.`
      : 'The browser disconnected during the script: it was closed or crashed.'
  }
  browser.on('disconnected', onDisconnected)
  process.on('beforeExit', onBeforeExit)
  return {
    get message() {
      return message
    },
    get told() {
      return told
    },
    stranded,
    dispose() {
      browser.off('disconnected', onDisconnected)
      process.off('beforeExit', onBeforeExit)
    },
  }
}

interface DisconnectWatch {
  /** What to tell the user, once the browser has disconnected. */
  readonly message: string | undefined
  /** Whether `stranded` has carried the message already. */
  readonly told: boolean
  /** Rejects when the browser is gone and the script still waits with nothing left to answer it. */
  readonly stranded: Promise<never>
  /** Stops watching: call it before closing the browser, which disconnects it. */
  dispose(): void
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
