import { randomUUID } from 'node:crypto'
import type { Page } from 'puppeteer-core'
import { isolatedWorld } from '../browser/isolated-world.ts'
import { clip } from '../clip.ts'

// A model takes seconds to write rules, and the page may navigate or replace its document meanwhile.
// Rules run on another document would return that document's data as if it were the one asked about,
// so the document the outline is taken from is pinned, and the last read is checked against it.

/** The main frame's document as it was when pinned. */
export interface DocumentPin {
  /**
   * Throws when the main frame navigated since the pin (to another document, or within it to another
   * route of a single-page app), or its document was replaced (`document.open()`, a new root element).
   */
  check(): Promise<void>
}

// URLs are the page's to choose, and can be a megabyte long.
const URL_SHOWN = 200

/** The error for data that would come from another document than the one the rules were written for. */
function documentChanged(from: string, to: string, cause?: unknown): Error {
  return new Error(
    `The page navigated or replaced its document while the rules were written (from ${clip(from, URL_SHOWN)} to ${clip(to, URL_SHOWN)}): ` +
      'rules are never run on another document than the one they were written for.',
    cause === undefined ? undefined : { cause },
  )
}

// The mark lives on the root element's wrapper in our isolated world: the page cannot see or copy it,
// a new document comes with a new world, and a new root element has no mark.
const MARK = 'puppeteer-agent:document'

/** Runs in the page: the root element's mark, set to `fresh` when it has none. */
function documentMark(key: string, fresh: string): string {
  const root = document.documentElement as unknown as Record<string, string | undefined>
  root[key] ??= fresh
  return root[key]
}

/** A URL without its fragment: a page that only moves between its own anchors stays where it was. */
function place(url: string): string {
  const hash = url.indexOf('#')
  return hash === -1 ? url : url.slice(0, hash)
}

/**
 * Pins the document the main frame shows now. Take it before the outline, check it after the last read.
 * A new document (a navigation, `document.open()`, a new root element) loses the mark; a route change
 * of a single-page app keeps the document but moves its URL (fragments aside), and counts as well.
 */
export async function pinDocument(page: Page): Promise<DocumentPin> {
  const url = page.url()
  // Read in whatever frame is the main frame now: one that replaced it has another world, without the mark.
  const read = () => isolatedWorld(page.mainFrame()).evaluate(documentMark, MARK, randomUUID())
  const mark = await read()
  return {
    async check() {
      let now: string
      try {
        now = await read()
      } catch (error) {
        // A navigation destroyed the world the mark lives in while it was read.
        throw documentChanged(url, page.url(), error)
      }
      if (now !== mark || place(page.url()) !== place(url)) throw documentChanged(url, page.url())
    },
  }
}
