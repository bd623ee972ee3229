// The public API of puppeteer-agent/queue: workers that take jobs from a bullmq queue on Redis, and
// a producer that enqueues jobs and collects their results. docs/pipelines-and-workers.md, "Past one machine".
import type { Browser } from 'puppeteer-core'
import type { AgentOptions, ExtractResult, GoalOptions, GoalResult, Rules } from './index.d.ts'

/** The options a job may set: plain values. Models by id (`'local'` for the offline ones). */
export type JobOptions = Pick<
  GoalOptions,
  'reasoning' | 'timeout' | 'maxRetries' | 'maxRetryAfterMs' | 'maxSteps' | 'maxDecisions' | 'waitMs' | 'minConfidence' | 'checklist' | 'consent' | 'vision'
> & { decisions?: string | false; text?: string; evaluator?: string }

/** A job as a producer writes it: one line of a jobs file. */
export interface JobInput {
  /** Letters, digits, `.`, `-`, `_` (not all digits). Without one, a digest of the job: the same job is one job. */
  id?: string
  /** The page to open (http or https). */
  url: string
  /** Run in order on the page, each on where the one before left it. */
  goals?: string | string[]
  /** After the goals: `{ rules }` (no model), `{ instruction }` or both. */
  extract?: { instruction?: string; rules?: Rules }
  options?: JobOptions
  /**
   * May the goals run again on a retry after an earlier attempt had started one? Default `false`: a
   * goal may have acted (sent a form), so the retry reports the interruption instead of acting again.
   */
  repeatable?: boolean
}

/** A job as a worker runs it: checked, with its id. */
export interface WorkJob {
  id: string
  url: string
  goals: string[]
  extract?: { instruction?: string; rules?: Rules }
  options: JobOptions
  repeatable: boolean
}

/** What one attempt reached: written to the job's progress before each step, so a retry knows. */
export interface AttemptRecord {
  attempt: number
  /** `host:pid` of the worker that ran it. */
  worker: string
  /** `opening`: loading the URL; `goal`: running goal `goals.at(-1)`; `extract`; `done`; `failed`: it threw (see `error`). */
  stage: 'opening' | 'goal' | 'extract' | 'done' | 'failed'
  /** Each goal it started: `finished` once the goal's call returned, with its status. */
  goals: { index: number; state: 'started' | 'finished'; status?: 'success' | 'error' }[]
  error?: string
}

/** The job's progress in bullmq: every attempt's record, oldest first. */
export interface JobProgress {
  attempts: AttemptRecord[]
}

export interface RetryRecord {
  /** This attempt's number (bullmq's attemptsStarted). */
  attempt: number
  /** How the attempt before it ended: its worker stopped answering (died, lost its lock) or it threw. */
  after: 'stalled' | 'error'
  /** What the earlier attempts reached. */
  earlierProgress: AttemptRecord[]
}

/** A goal's result as a script gets it printed as JSON (errors as `{ name, message, code?, reason? }`), with the goal. */
export type JobGoalResult = Omit<GoalResult, 'profiling' | 'error'> & { goal: string; error?: PlainError }
export type JobExtractResult = Omit<ExtractResult, 'profiling' | 'error'> & { error?: PlainError }

export interface PlainError {
  name: string
  message: string
  code?: string
  reason?: string
}

/** What a worker stores as the job's return value. */
export interface JobResult {
  id: string
  url: string
  /** `success`: every goal succeeded and the extraction did. */
  status: 'success' | 'error'
  /** Why not: a goal ended with an error, the extraction did, or a retry would have repeated a goal that may have acted. */
  failure?: 'goal' | 'extract' | 'interrupted'
  /** What went wrong, in a sentence. */
  error?: string
  /** The HTTP status of the page load, when there was a response. */
  http?: number
  goals: JobGoalResult[]
  extract?: JobExtractResult
  attempt: number
  /** Set on every attempt after the first. */
  retried?: RetryRecord
  worker: string
  ms: number
}

export interface WorkerOptions {
  /** `redis://host:port` of the queue. */
  redis: string
  /** Default `'puppeteer-agent'`. */
  queue?: string
  /** Opens the browser the jobs run in; called again when it disconnects. Each job gets a browser context of its own. */
  browser: () => Promise<Browser>
  /** Jobs at once. Default 1. */
  concurrency?: number
  /** Options for every job's agent (models, `cache`, `record`, `secrets`…); a job's own options win. */
  agent?: AgentOptions
  /** Milliseconds a job's lock lasts without renewal: a worker silent that long has its job given to another. Default 30000. */
  lockDuration?: number
  /** Milliseconds between checks for stalled jobs. Default 30000. */
  stalledInterval?: number
  /** Times a job may stall and be given to another worker before it fails. Default 1. */
  maxStalledCount?: number
  /** Told of each job as it ends. */
  onJob?: (event: { id: string; state: 'completed' | 'failed' | 'retrying'; result?: JobResult; error?: string }) => void
}

export interface RunningWorker {
  /** `host:pid` (`host:pid/2` for a second worker of one process), as the results name it. */
  readonly name: string
  /** Stops taking jobs, lets the jobs in hand finish, closes the browser and the connections. */
  close(): Promise<void>
}

export declare function startWorker(options: WorkerOptions): Promise<RunningWorker>

export interface ProduceOptions {
  redis: string
  queue?: string
  /** Jobs as written; each is checked before any is enqueued. */
  jobs: JobInput[]
  /** Tries per job after errors. Default 3. */
  attempts?: number
  /** First pause before a retry in milliseconds, doubled each time. Default 1000. */
  backoffMs?: number
  /** Enqueue and return without waiting for the results. */
  wait?: boolean
  onProgress?: (progress: ProduceProgress) => void
}

export interface ProduceProgress {
  total: number
  completed: number
  failed: number
  /** Jobs a worker is running now. */
  active: number
  /** Jobs that were already in the queue under their id (enqueued before: not added again). */
  existing: number
}

export type ProducedResult =
  | { id: string; state: 'completed'; result: JobResult }
  | { id: string; state: 'failed'; error: string; attempts: number }

export interface Produced {
  /** In the order of the jobs; empty with `wait: false`. */
  results: ProducedResult[]
  progress: ProduceProgress
}

export declare function produce(options: ProduceOptions): Promise<Produced>

/** Reads a jobs file: JSON lines (one job a line) or one JSON array. Throws naming the line of a bad job. */
export declare function readJobsFile(path: string): Promise<JobInput[]>

/** Checks one job; throws an Error naming the bad field. */
export declare function parseJob(input: unknown, where?: string): WorkJob

/**
 * A replay cache on Redis (a `keyv` store, its keys under `puppeteer-agent-cache:`) that fails fast when
 * Redis is away, for `agent.cache` of every worker: what one worker learns of a page template serves all.
 */
export declare function redisCache(url: string): import('keyv').Keyv
