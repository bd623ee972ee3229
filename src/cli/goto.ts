import type { HTTPResponse, Page, PuppeteerLifeCycleEvent } from 'puppeteer-core'

export interface GotoOptions {
  url: string
  /** When navigation counts as finished. Default `'load'`: the agent waits for the page to settle before each step anyway. */
  waitUntil?: PuppeteerLifeCycleEvent | PuppeteerLifeCycleEvent[]
  /** Milliseconds before giving up on waiting. Default 30000. */
  timeout?: number
}

export interface GotoResult {
  response: HTTPResponse | null
  /** Why loading did not finish (a timeout, a network error); the page stays on whatever loaded. */
  error?: Error
}

const DEFAULT_TIMEOUT_MS = 30_000

/**
 * Navigates like browserless's `goto`: a slow or failed load resolves with `error` instead of
 * throwing, so a script goes on with what loaded. Only a call without a URL throws.
 */
export async function goto(page: Page, options: GotoOptions): Promise<GotoResult> {
  const url = options?.url
  if (typeof url !== 'string' || url.trim() === '') {
    throw new TypeError(`browserless.goto(page, { url }) needs a URL string, got ${JSON.stringify(url)}.`)
  }
  try {
    const response = await page.goto(url, {
      waitUntil: options.waitUntil ?? 'load',
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
    })
    return { response }
  } catch (error) {
    return { response: null, error: error instanceof Error ? error : new Error(String(error)) }
  }
}
