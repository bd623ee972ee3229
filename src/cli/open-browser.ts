import { existsSync } from 'node:fs'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { finishedWithin } from '../base/deadline.ts'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from './find-chrome.ts'
import { toError } from '../errors.ts'
import { CliError, EXIT } from './cli-error.ts'

export interface BrowserOptions {
  headless: boolean
  wsEndpoint: string | undefined
  env?: NodeJS.ProcessEnv
}

export interface BrowserSession {
  browser: Browser
  page: Page
  /** Closes a launched browser, or closes the page and disconnects from a remote one. Safe to call twice. */
  close(): Promise<void>
}

// A headless window has no size of its own; this one fits the desktop layout of most sites.
const HEADLESS_VIEWPORT = { width: 1280, height: 800 }
// A browser that does not close in this long is hung: it is killed, or left, and the CLI exits.
const CLOSE_TIMEOUT_MS = 5_000

export async function openBrowser(options: BrowserOptions): Promise<BrowserSession> {
  return options.wsEndpoint ? connectRemote(options.wsEndpoint) : launchLocal(options)
}

async function launchLocal({ headless, env = process.env }: BrowserOptions): Promise<BrowserSession> {
  const executablePath = findChrome(env)
  if (!executablePath) throw new CliError(NO_CHROME_MESSAGE, EXIT.usage)
  if (!existsSync(executablePath)) {
    throw new CliError(`CHROME_PATH is ${JSON.stringify(executablePath)}, but there is no file there. ${NO_CHROME_MESSAGE}`, EXIT.usage)
  }
  const browser = await puppeteer.launch({
    executablePath,
    headless,
    args: [...CHROME_FLAGS],
    defaultViewport: headless ? HEADLESS_VIEWPORT : null,
    // The CLI closes the browser on these signals itself, after telling the user.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  const close = once(async () => {
    const closed = browser.close().catch(() => {})
    if (!(await finishedWithin(closed, CLOSE_TIMEOUT_MS))) browser.process()?.kill('SIGKILL')
  })
  try {
    return { browser, page: await browser.newPage(), close }
  } catch (error) {
    await close()
    throw error
  }
}

async function connectRemote(browserWSEndpoint: string): Promise<BrowserSession> {
  const browser = await puppeteer.connect({ browserWSEndpoint, defaultViewport: HEADLESS_VIEWPORT }).catch((thrown: unknown) => {
    throw new CliError(
      `Cannot connect to the browser at ${browserWSEndpoint}: ${connectFailure(thrown)}. Check that it is running and that this is its WebSocket endpoint.`,
      EXIT.usage,
    )
  })
  const page = await browser.newPage().catch(async (error: unknown) => {
    await browser.disconnect()
    throw error
  })
  // The remote browser belongs to someone else: leave it running, minus the page opened here.
  const close = once(async () => {
    await finishedWithin(page.close().catch(() => {}), CLOSE_TIMEOUT_MS)
    await browser.disconnect().catch(() => {})
  })
  return { browser, page, close }
}

/** Why a connection failed: Puppeteer rejects with the socket's ErrorEvent, which is no Error but has a message. */
function connectFailure(thrown: unknown): string {
  const message = typeof thrown === 'object' && thrown !== null ? (thrown as { message?: unknown }).message : undefined
  return typeof message === 'string' && message !== '' ? message : toError(thrown).message
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined
  return () => (running ??= fn())
}
