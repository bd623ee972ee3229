// The browser a worker's jobs run in: a Chrome of its own, tied to the worker by a pipe so that it
// ends with the worker even when the worker is killed outright, or a remote one (a browser pool)
// that the worker only connects to.
import { existsSync } from 'node:fs'
import puppeteer, { type Browser } from 'puppeteer-core'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from './find-chrome.ts'
import { CliError, EXIT } from './cli-error.ts'

// As exec's: a headless window has no size of its own; this one fits the desktop layout of most sites.
const VIEWPORT = { width: 1280, height: 800 }

export function workerBrowser(options: { headless: boolean; wsEndpoint: string | undefined; env: NodeJS.ProcessEnv }): () => Promise<Browser> {
  const { headless, wsEndpoint, env } = options
  if (wsEndpoint) {
    return () =>
      puppeteer.connect({ browserWSEndpoint: wsEndpoint, defaultViewport: VIEWPORT }).catch((error: { message?: string }) => {
        throw new CliError(`Cannot connect to the browser at ${wsEndpoint}: ${error.message ?? String(error)}.`, EXIT.usage)
      })
  }
  const executablePath = findChrome(env)
  if (!executablePath) throw new CliError(NO_CHROME_MESSAGE, EXIT.usage)
  if (!existsSync(executablePath)) throw new CliError(`CHROME_PATH is ${JSON.stringify(executablePath)}, but there is no file there. ${NO_CHROME_MESSAGE}`, EXIT.usage)
  return () =>
    puppeteer.launch({
      executablePath,
      headless,
      pipe: true,
      args: [...CHROME_FLAGS],
      defaultViewport: headless ? VIEWPORT : null,
      // The worker stops on these signals itself, after the jobs in hand.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    })
}
