// A jobs file as a producer writes it by hand or from a spreadsheet: one JSON job a line, or one JSON
// array. Every job is checked here, so a bad line is named by its number before anything is enqueued.
import { readFile } from 'node:fs/promises'
import type { WorkJob } from '../../types/queue.d.ts'
import { JobShapeError, parseJob } from './job-shape.ts'

export async function readJobsFile(path: string): Promise<WorkJob[]> {
  const text = await readFile(path, 'utf8')
  if (text.trimStart().startsWith('[')) {
    const list = parseJson(text, `${path}`)
    if (!Array.isArray(list)) throw new JobShapeError(`${path} must hold one JSON array of jobs, or one job a line.`)
    return list.map((job, index) => parseJob(job, `${path} [${index}]`))
  }
  const jobs: WorkJob[] = []
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue
    const where = `${path} line ${index + 1}`
    jobs.push(parseJob(parseJson(line, where), where))
  }
  if (jobs.length === 0) throw new JobShapeError(`${path} holds no jobs.`)
  return jobs
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new JobShapeError(`${where} is not JSON: ${(error as Error).message}`)
  }
}
