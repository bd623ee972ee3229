import type { TestFn } from 'ava'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { CHROME_FLAGS, findChrome } from '../../src/cli/find-chrome.ts'

export async function launchChrome(): Promise<Browser> {
  const executablePath = findChrome()
  if (!executablePath) throw new Error('No Chrome found for the tests: set CHROME_PATH or install chromium.')
  return puppeteer.launch({ executablePath, headless: true, args: [...CHROME_FLAGS, '--disable-gpu'] })
}

/**
 * One browser per test file: launched before the first test, closed after the last.
 * `page()` opens a fresh page that is closed when the test ends.
 */
export function useChrome(test: TestFn) {
  let browser: Browser | undefined
  test.before(async () => {
    browser = await launchChrome()
  })
  test.after.always(async () => {
    await browser?.close()
  })
  return {
    get browser(): Browser {
      if (!browser) throw new Error('Chrome is not running yet')
      return browser
    },
    async page(t: { teardown(fn: () => unknown): void }, viewport = { width: 1000, height: 800 }): Promise<Page> {
      if (!browser) throw new Error('Chrome is not running yet')
      const context = await browser.createBrowserContext()
      const page = await context.newPage()
      await page.setViewport(viewport)
      t.teardown(() => context.close().catch(() => {}))
      return page
    },
    /** A page of its own, at `url`. */
    async open(t: { teardown(fn: () => unknown): void }, url: string, viewport?: { width: number; height: number }): Promise<Page> {
      const page = await this.page(t, viewport)
      await page.goto(url)
      return page
    },
  }
}
