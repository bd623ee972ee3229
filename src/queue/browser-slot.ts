// A worker outlives its browser: a pool recycles a remote one, a local one crashes. The slot holds the
// browser the jobs share and opens another the next time a job asks, once the first has disconnected.
import type { Browser } from 'puppeteer-core'

export interface BrowserSlot {
  /** The open browser, opening one when there is none (or the last one disconnected). */
  get(): Promise<Browser>
  /** Closes a browser this process launched, disconnects from a remote one. */
  close(): Promise<void>
}

export function browserSlot(open: () => Promise<Browser>): BrowserSlot {
  let current: Promise<Browser> | undefined
  const get = () => {
    if (current) return current
    const opening = open().then((browser) => {
      browser.once('disconnected', () => {
        if (current === opening) current = undefined
      })
      return browser
    })
    // A failed open is not kept: the next job tries again.
    opening.catch(() => {
      if (current === opening) current = undefined
    })
    current = opening
    return opening
  }
  return {
    get,
    async close() {
      const browser = await current?.catch(() => undefined)
      current = undefined
      if (!browser?.connected) return
      await (browser.process() ? browser.close() : browser.disconnect()).catch(() => {})
    },
  }
}
