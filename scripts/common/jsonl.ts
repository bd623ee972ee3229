import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/** A new file name in the temporary directory, e.g. `puppeteer-agent-compare-2026-05-01T10-00-00-000Z.jsonl`. */
export function temporaryJsonlPath(prefix: string, now = new Date()): string {
  return join(tmpdir(), `puppeteer-agent-${prefix}-${now.toISOString().replaceAll(':', '-').replace('.', '-')}.jsonl`)
}

/** Creates the file (and its folder) empty, so a run that ends early still leaves a readable file. */
export function startJsonl(file: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, '')
}

/** Appends one record as one line; written synchronously so an interrupted run keeps every finished line. */
export function appendJsonLine(file: string, record: unknown): void {
  appendFileSync(file, `${JSON.stringify(record)}\n`)
}

/** Reads every non-blank line as JSON; a bad line is an error that names the file and the line. */
export function readJsonLines<T = unknown>(file: string): T[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  const records: T[] = []
  lines.forEach((line, index) => {
    if (line.trim() === '') return
    try {
      records.push(JSON.parse(line) as T)
    } catch (error) {
      throw new Error(`${file}:${index + 1} is not valid JSON: ${(error as Error).message}`)
    }
  })
  return records
}
