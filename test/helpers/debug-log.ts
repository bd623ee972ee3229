import { format } from 'node:util'
import { log } from '../../src/base/log.ts'

/** Turns the `puppeteer-agent` debug log on and collects its lines until `restore()`. */
export function captureLog(): { lines: string[]; restore: () => void } {
  const lines: string[] = []
  const enabled = log.enabled
  const original = log.log
  log.enabled = true
  log.log = (...args: unknown[]) => lines.push(format(...(args as [string, ...unknown[]])))
  return {
    lines,
    restore: () => {
      log.enabled = enabled
      log.log = original
    },
  }
}
