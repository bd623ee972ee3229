import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { toError } from '../errors.ts'
import { CliError, EXIT } from './cli-error.ts'
import { runExec, type ExecIO } from './exec.ts'
import { describeError } from './output.ts'
import { providePackage } from './package-alias.ts'
import { parseArgs, USAGE } from './parse-args.ts'
import { runProduce } from './produce-command.ts'
import { runReport } from './report.ts'
import { runWorker } from './worker-command.ts'

/** Runs one CLI invocation and resolves its exit code. */
export async function main(args: readonly string[], io: ExecIO): Promise<number> {
  try {
    const command = parseArgs(args, io.env)
    if (command.kind === 'help') {
      await io.write(`${USAGE}\n`)
      return EXIT.ok
    }
    if (command.kind === 'version') {
      await io.write(`${version()}\n`)
      return EXIT.ok
    }
    if (command.kind === 'report') return await runReport(command.folder, io)
    if (command.kind === 'worker') return await runWorker(command.args, io)
    if (command.kind === 'produce') return await runProduce(command.args, io)
    providePackage()
    return await runExec(command.args, io)
  } catch (thrown) {
    const error = toError(thrown)
    if (error instanceof CliError) {
      await io.writeError(`puppeteer-agent: ${error.message}\n`)
      return error.exitCode
    }
    // The script failed to load (a syntax error, a throw at top level), the browser did not start, or
    // a run.jsonl to report has a bad line.
    await io.writeError(`${describeError(error, Boolean(io.env.DEBUG))}\n`)
    return EXIT.scriptFailed
  }
}

function version(): string {
  const path = fileURLToPath(import.meta.resolve('puppeteer-agent/package.json'))
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
}
