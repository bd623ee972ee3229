import { stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { writeReport } from '../record/read-run.ts'
import { RUN_FILE } from '../record/run-lines.ts'
import { CliError, EXIT } from './cli-error.ts'
import type { ExecIO } from './exec.ts'

/**
 * `puppeteer-agent report <run folder>`: rebuilds the folder's report.html and prints its path. A
 * path that is not a run folder is bad usage (exit 2); a run.jsonl that cannot be read throws.
 */
export async function runReport(folder: string, io: Pick<ExecIO, 'write'>): Promise<number> {
  const absolute = resolve(folder)
  if (!(await isKind(absolute, 'directory'))) throw new CliError(`No run folder at ${absolute}.`, EXIT.usage)
  if (!(await isKind(join(absolute, RUN_FILE), 'file'))) {
    throw new CliError(`${absolute} has no ${RUN_FILE}: give one of the run folders a recording writes, one per goal() or extract() call.`, EXIT.usage)
  }
  await io.write(`${await writeReport(absolute)}\n`)
  return EXIT.ok
}

async function isKind(path: string, kind: 'directory' | 'file'): Promise<boolean> {
  const found = await stat(path).catch(() => undefined)
  return kind === 'directory' ? Boolean(found?.isDirectory()) : Boolean(found?.isFile())
}
