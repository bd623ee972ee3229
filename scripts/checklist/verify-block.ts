import type { Page } from 'puppeteer-core'
import { messageOf } from '../common/message.ts'

/**
 * What the final page must show for a task to count as done, whatever the agent reported (seed 004's
 * verify block). Every given check must hold; substrings match exactly, case included.
 */
export interface VerifyBlock {
  url_contains?: string
  url_excludes?: string
  text_contains?: string
  text_excludes?: string
}

export interface FinalPage {
  url: string
  /** The page's visible text, as a user reads it. */
  text: string
}

export interface VerifyOutcome {
  passed: boolean
  /** The checks that did not hold, e.g. `text contains "Subscribed"`. */
  failed: string[]
}

/** Checks the block against the final page; a page the harness could not read fails every check. */
export function checkVerify(page: FinalPage, verify: VerifyBlock): VerifyOutcome {
  const failed: string[] = []
  if (verify.url_contains !== undefined && !page.url.includes(verify.url_contains)) failed.push(`url contains ${JSON.stringify(verify.url_contains)}`)
  if (verify.url_excludes !== undefined && page.url.includes(verify.url_excludes)) failed.push(`url excludes ${JSON.stringify(verify.url_excludes)}`)
  if (verify.text_contains !== undefined && !page.text.includes(verify.text_contains)) failed.push(`text contains ${JSON.stringify(verify.text_contains)}`)
  if (verify.text_excludes !== undefined && page.text.includes(verify.text_excludes)) failed.push(`text excludes ${JSON.stringify(verify.text_excludes)}`)
  return { passed: failed.length === 0, failed }
}

/**
 * The final URL and visible text. `document.body.innerText` leaves out shadow roots, so the text of
 * every open shadow root is added after it: a widget's confirmation (the shadow fixture's "Subscribed")
 * is text the user sees.
 */
export async function readFinalPage(page: Page): Promise<FinalPage> {
  const text = await page.evaluate(() => {
    const parts = [document.body?.innerText ?? '']
    const hosts = [...document.querySelectorAll('*')]
    while (hosts.length > 0) {
      const root = hosts.shift()!.shadowRoot
      if (!root) continue
      // innerText of an element that is not rendered (a <style>, a hidden panel) is its raw text: skipped.
      for (const child of root.children) if (child instanceof HTMLElement && child.checkVisibility()) parts.push(child.innerText)
      hosts.push(...root.querySelectorAll('*'))
    }
    return parts.join('\n')
  })
  return { url: page.url(), text }
}

/** Verifies the final page; a page that cannot be read (closed, crashed) is a failed verification that says why. */
export async function verifyFinalPage(page: Page, verify: VerifyBlock): Promise<VerifyOutcome & { finalUrl: string }> {
  const finalUrl = page.url()
  try {
    return { ...checkVerify(await readFinalPage(page), verify), finalUrl }
  } catch (error) {
    return { passed: false, failed: [`could not read the final page: ${messageOf(error)}`], finalUrl }
  }
}
