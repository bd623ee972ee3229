import type { Page } from 'puppeteer-core'

/** Checks on the final page, independent of what the agent reported. */
export interface Checks {
  /** Substrings the final URL must contain. */
  url: string[]
  /** Substrings the final page's visible text must contain. */
  text: string[]
}

export interface Verification {
  verified: boolean
  /** The checks that did not hold, e.g. `url contains "/done"`. */
  failed: string[]
}

export function hasChecks(checks: Checks): boolean {
  return checks.url.length > 0 || checks.text.length > 0
}

/** Every check must hold. The page text is read as the user sees it (innerText), frames aside. */
export async function verifyPage(page: Page, checks: Checks): Promise<Verification> {
  const url = page.url()
  const text = checks.text.length > 0 ? await page.evaluate(() => document.body?.innerText ?? '') : ''
  return judge(url, text, checks)
}

export function judge(url: string, text: string, checks: Checks): Verification {
  const failed = [
    ...checks.url.filter((part) => !url.includes(part)).map((part) => `url contains ${JSON.stringify(part)}`),
    ...checks.text.filter((part) => !text.includes(part)).map((part) => `text contains ${JSON.stringify(part)}`),
  ]
  return { verified: failed.length === 0, failed }
}
