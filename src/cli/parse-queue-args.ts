// The flags of `worker` and `produce`, the queue's two commands. Unlike exec's, every flag here is the
// CLI's own: an unknown one is a mistake, said at once.
import mri from 'mri'
import { CliError, EXIT } from './cli-error.ts'

export interface WorkerArgs {
  redis: string
  queue: string | undefined
  concurrency: number
  headless: boolean
  wsEndpoint: string | undefined
  /** A directory or a redis:// URL; false: none; undefined: the queue's Redis. */
  cache: string | false | undefined
  /** A directory; false: none; undefined: the environment decides (PUPPETEER_AGENT_RECORD). */
  record: string | false | undefined
  lockDuration: number | undefined
  stalledInterval: number | undefined
  maxStalled: number | undefined
}

export interface ProduceArgs {
  file: string
  redis: string
  queue: string | undefined
  attempts: number | undefined
  backoff: number | undefined
  /** Where results go, one JSON line each; undefined: stdout. */
  out: string | undefined
  wait: boolean
}

export const QUEUE_USAGE = `       puppeteer-agent worker [--redis=<url>] [--queue=<name>] [--concurrency=1] [--ws-endpoint=<url>] [--no-headless]
                              [--cache=<dir>|<redis url> | --no-cache] [--record=<dir> | --no-record]
                              [--lock-duration=30000] [--stalled-interval=30000] [--max-stalled=1]
       puppeteer-agent produce <jobs file> [--redis=<url>] [--queue=<name>] [--attempts=3] [--backoff=1000]
                              [--out=<results file>] [--no-wait]`

const DEFAULT_REDIS = 'redis://127.0.0.1:6379'

export function parseWorkerArgs(args: readonly string[], env: NodeJS.ProcessEnv): WorkerArgs {
  const flags = parse('worker', args, {
    boolean: ['headless'],
    string: ['redis', 'queue', 'concurrency', 'ws-endpoint', 'cache', 'record', 'lock-duration', 'stalled-interval', 'max-stalled'],
    default: { headless: true },
  })
  if (flags._.length > 0) throw new CliError(`worker takes no file, got ${JSON.stringify(flags._[0])}.`, EXIT.usage)
  const wsEndpoint = text(flags, 'ws-endpoint') ?? (env.BROWSER_WS_ENDPOINT?.trim() || undefined)
  if (wsEndpoint !== undefined && !/^wss?:\/\/\S+$/.test(wsEndpoint)) {
    throw new CliError(`--ws-endpoint must be a ws:// or wss:// URL, got ${JSON.stringify(wsEndpoint)}.`, EXIT.usage)
  }
  if (typeof flags.headless !== 'boolean') throw new CliError('--headless takes no value; use --no-headless to show the browser.', EXIT.usage)
  return {
    redis: redisFlag(flags, env),
    queue: text(flags, 'queue'),
    concurrency: whole(flags, 'concurrency', 1) ?? 1,
    headless: flags.headless,
    wsEndpoint,
    cache: offOrText(flags, 'cache', 'a directory or a redis:// URL'),
    record: offOrText(flags, 'record', 'a directory'),
    lockDuration: whole(flags, 'lock-duration', 100),
    stalledInterval: whole(flags, 'stalled-interval', 100),
    maxStalled: whole(flags, 'max-stalled', 0),
  }
}

export function parseProduceArgs(args: readonly string[], env: NodeJS.ProcessEnv): ProduceArgs {
  const flags = parse('produce', args, { boolean: ['wait'], string: ['redis', 'queue', 'attempts', 'backoff', 'out'], default: { wait: true } })
  const [file, ...rest] = flags._
  if (!file || rest.length > 0) throw new CliError('produce needs one jobs file (JSON lines, or a JSON array).', EXIT.usage)
  if (typeof flags.wait !== 'boolean') throw new CliError('--wait takes no value; use --no-wait to enqueue and return.', EXIT.usage)
  return {
    file,
    redis: redisFlag(flags, env),
    queue: text(flags, 'queue'),
    attempts: whole(flags, 'attempts', 1),
    backoff: whole(flags, 'backoff', 0),
    out: text(flags, 'out'),
    wait: flags.wait,
  }
}

type Flags = { _: string[]; [flag: string]: any }

function parse(command: string, args: readonly string[], options: { boolean: string[]; string: string[]; default: Record<string, unknown> }): Flags {
  const known = new Set([...options.boolean, ...options.string, '_'])
  const flags: Flags = mri([...args], options)
  const unknown = Object.keys(flags).find((key) => !known.has(key))
  if (unknown) throw new CliError(`Unknown flag --${unknown} for ${command}; its flags are ${[...options.boolean, ...options.string].map((flag) => `--${flag}`).join(', ')}.`, EXIT.usage)
  return flags
}

/** `--<name>=<value>` given once and not empty, or undefined. */
function text(flags: Flags, name: string): string | undefined {
  const value = flags[name]
  if (value === undefined) return undefined
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  throw new CliError(`--${name} ${Array.isArray(value) ? 'was given more than once' : 'needs a value'}: --${name}=<value>.`, EXIT.usage)
}

/** `--<name>=<value>`, `--no-<name>` (false) or neither (undefined). */
function offOrText(flags: Flags, name: string, what: string): string | false | undefined {
  if (flags[name] === false) return false
  if (flags[name] === undefined) return undefined
  const value = flags[name]
  if (typeof value === 'string' && value.trim() !== '') return value.trim()
  throw new CliError(`--${name} needs ${what}, or --no-${name} to turn it off.`, EXIT.usage)
}

function whole(flags: Flags, name: string, least: number): number | undefined {
  const value = text(flags, name)
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isInteger(number) || number < least) throw new CliError(`--${name} must be a whole number ≥ ${least}, got ${JSON.stringify(value)}.`, EXIT.usage)
  return number
}

function redisFlag(flags: Flags, env: NodeJS.ProcessEnv): string {
  const url = text(flags, 'redis') ?? (env.REDIS_URL?.trim() || DEFAULT_REDIS)
  if (!/^rediss?:\/\/\S+$/.test(url)) throw new CliError(`--redis must be a redis:// or rediss:// URL, got ${JSON.stringify(url)}.`, EXIT.usage)
  return url
}
