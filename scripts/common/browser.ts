import puppeteer, { type Browser } from 'puppeteer-core'
import { CHROME_FLAGS, findChrome, NO_CHROME_MESSAGE } from '../../src/cli/find-chrome.ts'

/** A headless Chrome for a measuring run; every run then opens its own browser context in it. */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = findChrome()
  if (!executablePath) throw new Error(NO_CHROME_MESSAGE)
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: [...CHROME_FLAGS],
    defaultViewport: { width: 1280, height: 800 },
  })
}
