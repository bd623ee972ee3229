// npm run report:screenshot -- [<run folder | directory of runs>] [--out=<file.png>]
// Rebuilds a recorded run's report.html and writes a full-page PNG of it (report.png beside it unless
// --out says otherwise), so the report can be looked at, and reviewed, without opening a browser.
// Given a directory of runs, or nothing (then `recordings`, where `npm start` records), it takes
// the run whose run.jsonl was written last.
import { readdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { writeReport } from '../src/record/read-run.ts'
import { RUN_FILE } from '../src/record/run-lines.ts'
import { launchBrowser } from './common/browser.ts'
import { FlagError, parseFlags, stringFlag } from './common/flags.ts'
import { runScript } from './common/run-script.ts'

const USAGE = `Usage: npm run report:screenshot -- [<run folder | directory of runs>] [--out=<file.png>]
  <run folder>    a folder with run.jsonl; a directory of such folders gives its newest run (default: recordings)
  --out=<file>    where the PNG goes (default: report.png in the run folder)`

async function main(argv: string[]): Promise<number> {
  // parseFlags takes --flag=value only; the one positional, the folder, is taken out first.
  const positional = argv.filter((arg) => !arg.startsWith('--'))
  const flags = parseFlags(argv.filter((arg) => arg.startsWith('--')), { strings: ['out'], booleans: ['help'] })
  if (flags.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (positional.length > 1) throw new FlagError(`Give one run folder, not ${positional.length}.`)
  const folder = await runFolder(resolve(positional[0] ?? 'recordings'))
  const report = await writeReport(folder)
  const out = resolve(stringFlag(flags, 'out') ?? join(folder, 'report.png'))
  if (!out.endsWith('.png')) throw new FlagError(`--out must name a .png file, got ${JSON.stringify(out)}.`)

  const browser = await launchBrowser()
  try {
    const page = await browser.newPage()
    // `load` waits for every image: the report loads them all eagerly, from the folder.
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' })
    await page.screenshot({ path: out as `${string}.png`, type: 'png', fullPage: true })
  } finally {
    await browser.close().catch(() => {})
  }
  process.stdout.write(`${out}\n`)
  return 0
}

/** The folder itself when it holds a run.jsonl, else its sub-folder whose run.jsonl is newest. */
async function runFolder(path: string): Promise<string> {
  if (await modified(join(path, RUN_FILE))) return path
  const entries = await readdir(path, { withFileTypes: true }).catch(() => {
    throw new FlagError(`No run folder or directory of runs at ${path}. Record one (the record option, or exec --record=<dir>) or name one.`)
  })
  let newest: { folder: string; time: number } | undefined
  for (const entry of entries.filter((candidate) => candidate.isDirectory())) {
    const time = await modified(join(path, entry.name, RUN_FILE))
    if (time !== undefined && (newest === undefined || time > newest.time)) newest = { folder: join(path, entry.name), time }
  }
  if (!newest) throw new FlagError(`${path} holds no run folder (a folder with ${RUN_FILE}).`)
  return newest.folder
}

async function modified(file: string): Promise<number | undefined> {
  const found = await stat(file).catch(() => undefined)
  return found?.isFile() ? found.mtimeMs : undefined
}

runScript('report:screenshot', USAGE, main)
