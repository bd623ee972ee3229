import { existsSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ReachCase } from '../../test/fixtures/reach/case-types.ts'
import { FlagError } from '../common/flags.ts'

// The suite: `cases.ts` of the fixtures folder, imported at run time so an older checkout of the
// library can be measured on the newest pages (`--fixtures=<new checkout>/test/fixtures/reach`).

export type { ReachCase }

/** The fixtures of the checkout this script lives in. */
export const DEFAULT_FIXTURES = resolve(import.meta.dirname, '../../test/fixtures/reach')

export interface Suite {
  dir: string
  /** The folder the server serves (the one above `dir`), and where `dir` sits in it. */
  root: string
  prefix: string
  cases: ReachCase[]
}

/** The two digits a page's file name starts with (`05-inbox-rows.html` → `05`), else its name. */
export function caseId(reachCase: Pick<ReachCase, 'page'>): string {
  return /^(\d+)-/.exec(reachCase.page)?.[1] ?? reachCase.page.replace(/\.html$/, '')
}

export async function loadSuite(dir: string, only: readonly string[]): Promise<Suite> {
  const casesFile = join(dir, 'cases.ts')
  if (!existsSync(casesFile)) throw new Error(`No cases.ts in ${dir}: give --fixtures=<folder with the NN-slug.html pages and cases.ts>.`)
  const module = (await import(pathToFileURL(casesFile).href)) as { CASES?: unknown }
  if (!Array.isArray(module.CASES)) throw new Error(`${casesFile} does not export CASES as an array.`)
  const all = module.CASES as ReachCase[]
  for (const [index, reachCase] of all.entries()) {
    const problem = checkCase(reachCase)
    if (problem) throw new Error(`${casesFile}: case ${index + 1} (${String(reachCase?.page)}) ${problem}`)
  }
  const cases = only.length === 0 ? all : all.filter((reachCase) => only.some((id) => names(id, reachCase)))
  const unknown = only.filter((id) => !all.some((reachCase) => names(id, reachCase)))
  if (unknown.length > 0) throw new FlagError(`--cases names no case: ${unknown.join(', ')} (known: ${all.map(caseId).join(', ')}).`)
  return { dir, root: dirname(dir), prefix: basename(dir), cases }
}

/** `--cases` names a case by its number (`5` or `05`) or its file name. */
function names(id: string, reachCase: ReachCase): boolean {
  const number = caseId(reachCase)
  return id === number || id === reachCase.page || (/^\d+$/.test(id) && /^\d+$/.test(number) && Number(id) === Number(number))
}

// Only what the bench relies on: a malformed case should fail the start, not a figure halfway.
function checkCase(reachCase: ReachCase): string | undefined {
  if (!reachCase || typeof reachCase.page !== 'string') return 'has no page'
  if (!Array.isArray(reachCase.controls)) return 'has no controls list'
  const task = reachCase.task
  if (!task || typeof task.goal !== 'string' || !Array.isArray(task.steps) || typeof task.doneText !== 'string') return 'has no complete task'
  return undefined
}
