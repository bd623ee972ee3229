import { JSDOM } from 'jsdom'
import { pageScriptOf } from '../../src/browser/page-script.ts'
import type { PageFunctions } from '../../src/page/call-page.ts'

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

/** Calls a function of the bundled page script (src/page/) by name inside a jsdom window, as Node does in Chrome. */
export function callInDom<N extends keyof PageFunctions>(dom: JSDOM, name: N, ...args: unknown[]): ReturnType<PageFunctions[N]> {
  const { key, version, source } = pageScriptOf(name)
  const install = dom.window.eval(`(${source})`) as (key: string, version: string, name: N, ...args: unknown[]) => ReturnType<PageFunctions[N]>
  return install(key, version, name, ...args)
}
