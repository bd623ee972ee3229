import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'

/** Flags that keep Chrome from stalling on a closed network or as root in a container. */
export const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
] as const

const SYSTEM_CHROMES: Record<string, string[]> = {
  linux: [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
    '/snap/bin/chromium',
  ],
  darwin: [
    '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ],
  win32: [
    'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    'C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe',
  ],
}

/** `CHROME_PATH`, then the browser of a `puppeteer` install, then the usual system places. */
export function findChrome(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fromEnv = env.CHROME_PATH?.trim()
  if (fromEnv) return fromEnv
  const fromPuppeteer = puppeteerBrowser()
  if (fromPuppeteer) return fromPuppeteer
  return (SYSTEM_CHROMES[process.platform] ?? []).find((path) => existsSync(path))
}

export const NO_CHROME_MESSAGE =
  'No Chrome or Chromium was found. Set CHROME_PATH to a Chrome binary, install one ' +
  '(Debian/Ubuntu: apt-get install chromium; macOS: install Google Chrome), or pass --ws-endpoint=ws://… to use a remote browser.'

function puppeteerBrowser(): string | undefined {
  try {
    const require = createRequire(import.meta.url)
    const puppeteer = require('puppeteer') as { executablePath?: () => string }
    const path = puppeteer.executablePath?.()
    return path && existsSync(path) ? path : undefined
  } catch {
    return undefined
  }
}
