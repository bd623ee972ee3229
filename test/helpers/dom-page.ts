import type { Page } from 'puppeteer-core'
import { makeDom, runInDom, type DomOptions } from './jsdom.ts'

/**
 * A page whose `evaluate` (and its main frame's isolated world) runs the function in jsdom, as Puppeteer would in Chrome, counting the
 * evaluations. It never closes, crashes or loses its browser: listeners are taken and never called.
 */
export function domPage(html: string, options: DomOptions = {}): Page & { evaluations: number } {
  const dom = makeDom(html, options)
  const browser = { connected: true, on: () => browser, off: () => browser }
  const page = {
    evaluations: 0,
    browser: () => browser,
    isClosed: () => false,
    url: () => dom.window.location.href,
    on: () => page,
    off: () => page,
    async evaluate(fn: (...args: any[]) => unknown, ...args: unknown[]) {
      const result = runInDom(dom, fn, ...args)
      // The page script's stub finding a document without the script is not a read of the page.
      if (!(typeof result === 'string' && result.endsWith('page script missing'))) page.evaluations++
      return result
    },
    // The agent runs its scripts in the main frame's isolated world (src/browser/isolated-world.ts):
    // here that is jsdom too, through the page's `evaluate`, so a test can replace it.
    mainFrame: () => ({
      _id: 'main',
      client: {},
      isolatedRealm: () => ({ evaluate: (fn: (...args: any[]) => unknown, ...args: unknown[]) => page.evaluate(fn, ...args) }),
    }),
  }
  return page as unknown as Page & { evaluations: number }
}
