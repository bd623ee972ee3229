import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

// @duckduckgo/autoconsent ships its content script as a self-contained bundle for browser automation
// (dist/autoconsent.playwright.js, not in its package exports, so found beside its main file) and its
// consent-platform rules as JSON. Both are read from disk once, on the first goal that asks for consent.

export interface AutoconsentFiles {
  /** The content script: it builds an AutoConsent instance and talks through two globals of its world. */
  script: string
  /** The full rule bundle (`{ autoconsent: [...] }`); the compact one holds opt-out steps only, not opt-in. */
  rules: unknown
}

let files: AutoconsentFiles | undefined

export function autoconsentFiles(): AutoconsentFiles {
  if (files) return files
  const require = createRequire(import.meta.url)
  const dist = dirname(require.resolve('@duckduckgo/autoconsent'))
  files = {
    script: readFileSync(join(dist, 'autoconsent.playwright.js'), 'utf8'),
    rules: JSON.parse(readFileSync(require.resolve('@duckduckgo/autoconsent/rules/rules.json'), 'utf8')),
  }
  return files
}
