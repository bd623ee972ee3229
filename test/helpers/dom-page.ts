import type { Page } from 'puppeteer-core'
import { makeDom, runInDom, type DomOptions } from './jsdom.ts'

/** A page whose `evaluate` runs the function in jsdom, as Puppeteer would in Chrome, counting the evaluations. */
export function domPage(html: string, options: DomOptions = {}): Page & { evaluations: number } {
  const dom = makeDom(html, options)
  const page = {
    evaluations: 0,
    async evaluate(fn: (...args: any[]) => unknown, ...args: unknown[]) {
      page.evaluations++
      return runInDom(dom, fn, ...args)
    },
  }
  return page as unknown as Page & { evaluations: number }
}
