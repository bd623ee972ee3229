import { JSDOM } from 'jsdom'

export interface DomOptions {
  url?: string
}

/** Parses `html` into a jsdom window; scripts in the HTML do not run. */
export function makeDom(html: string, options: DomOptions = {}): JSDOM {
  return new JSDOM(html, { url: options.url ?? 'http://127.0.0.1/', pretendToBeVisual: true, runScripts: 'outside-only' })
}

/**
 * Runs a page-side function inside a jsdom window the way Puppeteer would: from its source text, so
 * a function that leans on anything outside itself fails here as it would in Chrome.
 */
export function runInDom<R>(dom: JSDOM, fn: (...args: any[]) => R, ...args: unknown[]): R {
  const compiled = dom.window.eval(`(${fn.toString()})`) as (...args: unknown[]) => R
  return compiled(...args)
}
