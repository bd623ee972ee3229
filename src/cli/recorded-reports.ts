import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { REPORT_FILE } from '../record/run-lines.ts'

/**
 * The reports written in `dir` since `since` (ms since the epoch), oldest first: the runs of the
 * script exec just ran. Run folders are named by their start time, so their names sort them.
 */
export async function reportsSince(dir: string, since: number): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch {
    return []
  }
  const reports: string[] = []
  for (const name of names.sort()) {
    const report = join(dir, name, REPORT_FILE)
    // A run whose report could not be written has none to print, whatever is at its path.
    const written = await stat(report).then((info) => (info.isFile() ? info.mtimeMs : undefined), () => undefined)
    if (written !== undefined && written >= since) reports.push(report)
  }
  return reports
}
