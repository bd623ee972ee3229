import mri from 'mri'
import { CliError, EXIT } from './cli-error.ts'
import { parseProduceArgs, parseWorkerArgs, QUEUE_USAGE, type ProduceArgs, type WorkerArgs } from './parse-queue-args.ts'

/** The flags and positional arguments the script receives, as parsed (numbers stay numbers, `--no-x` is `x: false`). */
export interface ScriptArgv {
  _: string[]
  [flag: string]: unknown
}

export interface ExecArgs {
  file: string
  headless: boolean
  wsEndpoint: string | undefined
  /** `--cache=<dir>`: the directory; `--no-cache`: false; absent: undefined, the environment decides. */
  cache: string | false | undefined
  /** `--record=<dir>` / `--no-record`, the same way. */
  record: string | false | undefined
  argv: ScriptArgv
}

export type Command =
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'exec'; args: ExecArgs }
  | { kind: 'report'; folder: string }
  | { kind: 'worker'; args: WorkerArgs }
  | { kind: 'produce'; args: ProduceArgs }

export const USAGE = `Usage: puppeteer-agent exec <file> [flags]
       puppeteer-agent report <run folder>
${QUEUE_USAGE}

exec opens a page and calls the function <file> exports with { page, browser, browserless, argv },
then prints what it returns as JSON.
report rebuilds report.html of a recorded run from its run.jsonl and screenshots, and prints its path.
worker takes jobs from a bullmq queue on Redis (--redis or REDIS_URL, default redis://127.0.0.1:6379)
and runs each in its own browser context, until SIGTERM lets it finish the jobs in hand.
produce checks and enqueues the jobs of a file, prints each job's result as a JSON line, and exits
1 when a job ended in the failed set.

Flags:
  --no-headless           show the browser window
  --ws-endpoint=<url>     connect to a remote Chrome (or set BROWSER_WS_ENDPOINT) instead of launching one
  --cache=<dir>           keep the replay cache in <dir>: goals and extraction rules run again without
                          the model (sets PUPPETEER_AGENT_CACHE; a cache option in the script wins)
  --no-cache              no replay cache, even when PUPPETEER_AGENT_CACHE is set
  --record=<dir>          record every goal and extraction of the script into <dir> (sets
                          PUPPETEER_AGENT_RECORD) and print each report's path at the end
  --no-record             no recording, even when PUPPETEER_AGENT_RECORD is set
  --help, --version
  any other --flag=value  passed to the script in argv

Exit codes: 0 done, 1 the script threw (for report: run.jsonl has a bad line), 2 bad usage,
no browser to run it in, or no run folder to report.`

// Flags the CLI consumes; everything else belongs to the script.
const OWN_FLAGS = ['headless', 'ws-endpoint', 'cache', 'record', 'help', 'h', 'version', 'v']

export function parseArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Command {
  // The queue's commands have flags of their own, none of them a script's.
  const first = args.findIndex((arg) => !arg.startsWith('-'))
  const queueCommand = args[first]
  const help = args.some((arg) => arg === '--help' || arg === '-h')
  if (!help && (queueCommand === 'worker' || queueCommand === 'produce')) {
    const rest = [...args.slice(0, first), ...args.slice(first + 1)]
    return queueCommand === 'worker' ? { kind: 'worker', args: parseWorkerArgs(rest, env) } : { kind: 'produce', args: parseProduceArgs(rest, env) }
  }
  const parsed = mri([...args], {
    boolean: ['headless', 'help', 'version'],
    string: ['ws-endpoint', 'cache', 'record'],
    alias: { h: 'help', v: 'version' },
    default: { headless: true },
  })
  if (parsed.help) return { kind: 'help' }
  if (parsed.version) return { kind: 'version' }

  const [command, file, ...rest] = parsed._
  if (command === undefined) throw new CliError(`No command given.\n\n${USAGE}`, EXIT.usage)
  if (command === 'report') return reportCommand(file, rest)
  if (command !== 'exec') throw new CliError(`Unknown command "${command}": the commands are exec, report, worker and produce.\n\n${USAGE}`, EXIT.usage)
  if (!file) throw new CliError(`exec needs a script file.\n\n${USAGE}`, EXIT.usage)

  const wsEndpoint = parsed['ws-endpoint'] ?? (env.BROWSER_WS_ENDPOINT || undefined)
  if (wsEndpoint !== undefined && !/^wss?:\/\/\S+$/.test(wsEndpoint.trim())) {
    throw new CliError(`--ws-endpoint must be a ws:// or wss:// URL, got ${JSON.stringify(wsEndpoint)}.`, EXIT.usage)
  }
  if (typeof parsed.headless !== 'boolean') {
    throw new CliError(`--headless takes no value; use --no-headless to show the browser.`, EXIT.usage)
  }
  const cache = directoryFlag('cache', parsed.cache)
  const record = directoryFlag('record', parsed.record)

  const argv: ScriptArgv = { _: rest }
  for (const [key, value] of Object.entries(parsed)) {
    if (key !== '_' && !OWN_FLAGS.includes(key)) argv[key] = value
  }
  return { kind: 'exec', args: { file, headless: parsed.headless, wsEndpoint: wsEndpoint?.trim() || undefined, cache, record, argv } }
}

/** `--<name>=<dir>`, `--no-<name>` (false) or neither (undefined). */
function directoryFlag(name: 'cache' | 'record', value: unknown): string | false | undefined {
  if (value === undefined || value === false) return value
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  const why = Array.isArray(value) ? 'was given more than once' : 'needs a directory'
  throw new CliError(`--${name} ${why}: --${name}=<dir>, or --no-${name} to turn it off.`, EXIT.usage)
}

function reportCommand(folder: string | undefined, rest: string[]): Command {
  if (!folder || rest.length > 0) throw new CliError(`report needs one run folder.\n\n${USAGE}`, EXIT.usage)
  return { kind: 'report', folder }
}
