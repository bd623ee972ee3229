// `puppeteer-agent produce <jobs file>`: enqueue the file's jobs, show how far they are on stderr,
// and write each job's end as a JSON line (stdout, or --out) once all have ended.
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'
import type { ProduceProgress, ProducedResult } from '../../types/queue.d.ts'
import { JobShapeError } from '../queue/job-shape.ts'
import { readJobsFile } from '../queue/jobs-file.ts'
import { produce } from '../queue/producer.ts'
import { toError } from '../errors.ts'
import { CliError, EXIT } from './cli-error.ts'
import type { ExecIO } from './exec.ts'
import type { ProduceArgs } from './parse-queue-args.ts'

/** Progress lines at most this often: a line per job would drown a long run. */
const PROGRESS_EVERY_MS = 1_000

export async function runProduce(args: ProduceArgs, io: ExecIO): Promise<number> {
  const jobs = await readJobsFile(args.file).catch((thrown: unknown) => {
    const error = toError(thrown) as NodeJS.ErrnoException
    if (error.code === 'ENOENT') throw new CliError(`No jobs file at ${args.file}.`, EXIT.usage)
    throw error instanceof JobShapeError ? new CliError(error.message, EXIT.usage) : error
  })
  let shown = 0
  const show = (progress: ProduceProgress, force = false) => {
    if (!force && performance.now() - shown < PROGRESS_EVERY_MS) return
    shown = performance.now()
    void io.writeError(`produce: ${line(progress)}\n`)
  }
  const produced = await produce({
    redis: args.redis,
    queue: args.queue,
    jobs,
    attempts: args.attempts,
    backoffMs: args.backoff,
    wait: args.wait,
    onProgress: (progress) => show(progress),
  }).catch((thrown: unknown) => {
    const error = toError(thrown)
    throw error.message.startsWith('Redis at ') ? new CliError(error.message, EXIT.usage) : error
  })
  if (!args.wait) {
    await io.writeError(`produce: enqueued ${jobs.length} jobs, ${produced.progress.existing} of them already in the queue.\n`)
    return EXIT.ok
  }
  await writeResults(produced.results, args.out, io)
  show(produced.progress, true)
  return produced.progress.failed > 0 ? EXIT.scriptFailed : EXIT.ok
}

function line({ total, completed, failed, active, existing }: ProduceProgress): string {
  const queued = existing > 0 ? `, ${existing} were queued before` : ''
  return `${completed + failed}/${total} ended (${completed} completed, ${failed} failed), ${active} running${queued}`
}

async function writeResults(results: ProducedResult[], out: string | undefined, io: ExecIO): Promise<void> {
  const lines = results.map((result) => `${JSON.stringify(result)}\n`)
  if (!out) {
    for (const text of lines) await io.write(text)
    return
  }
  const file = createWriteStream(out)
  for (const text of lines) if (!file.write(text)) await once(file, 'drain')
  file.end()
  await once(file, 'finish')
}
