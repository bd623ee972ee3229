import type { TestFn } from 'ava'
import puppeteer, { type Browser, type Page } from 'puppeteer-core'
import { CHROME_FLAGS, findChrome } from '../../src/cli/find-chrome.ts'

export async function launchChrome(): Promise<Browser> {
  const executablePath = findChrome()
  if (!executablePath) throw new Error('No Chrome found for the tests: set CHROME_PATH or install chromium.')
  return puppeteer.launch({ executablePath, headless: true, args: [...CHROME_FLAGS, '--disable-gpu'] })
}

/**
 * Tests of one file that hold pages at once. Ava starts every test of a file together and runs two
 * files at a time: 28 pages of one file at once took a 2-core machine to a load of 25, and tests'
 * bounds (a 5 s navigation, a 20 s goal) past their room. A test waits for a turn before its first page.
 */
const TESTS_WITH_PAGES = 3

/** Turns for tests, first come first served. */
class Turns {
  #free: number
  readonly #waiting: (() => void)[] = []
  constructor(size: number) {
    this.#free = size
  }
  async take(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1
      return
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }
  give(): void {
    const next = this.#waiting.shift()
    if (next) next()
    else this.#free += 1
  }
}

/**
 * One browser per test file: launched before the first test, closed after the last.
 * `page()` opens a fresh page that is closed when the test ends; a test holds one of the file's
 * turns from its first page to its end.
 */
export function useChrome(test: TestFn) {
  let browser: Browser | undefined
  const turns = new Turns(TESTS_WITH_PAGES)
  const holding = new WeakSet<object>()
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
      if (!holding.has(t)) {
        holding.add(t)
        await turns.take()
        t.teardown(() => turns.give())
      }
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
