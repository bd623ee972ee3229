// Each attempt at a job writes what it reached into the job's progress in Redis, and awaits the write
// before each step, so a goal that may have acted is on record before it acts. A retry reads the
// earlier attempts from there: it is how a worker that died mid-goal is not taken for a fresh start.
import type { AttemptRecord, JobProgress, RetryRecord } from '../../types/queue.d.ts'

const STAGES = new Set<AttemptRecord['stage']>(['opening', 'goal', 'extract', 'done', 'failed'])

/** The attempts a job's progress holds; anything that is not a record written here is left out. */
export function earlierAttempts(progress: unknown, attempt: number): AttemptRecord[] {
  const attempts = (progress as Partial<JobProgress> | null)?.attempts
  if (!Array.isArray(attempts)) return []
  return attempts.filter((record): record is AttemptRecord => isRecord(record) && record.attempt < attempt)
}

function isRecord(value: unknown): value is AttemptRecord {
  const record = value as AttemptRecord
  return (
    typeof record === 'object' &&
    record !== null &&
    Number.isInteger(record.attempt) &&
    typeof record.worker === 'string' &&
    STAGES.has(record.stage) &&
    Array.isArray(record.goals) &&
    record.goals.every((goal) => Number.isInteger(goal?.index) && (goal.state === 'started' || goal.state === 'finished'))
  )
}

/**
 * How this attempt starts: `retried` on every attempt after the first; `interrupted` when an earlier
 * attempt had started a goal and the job is not repeatable, so this one must not act. `stalled` is
 * what bullmq counted: how often the job's worker went silent and the job was given to another.
 */
export function planAttempt(attempt: number, earlier: AttemptRecord[], stalled: number, repeatable: boolean): { retried?: RetryRecord; interrupted?: string } {
  if (attempt <= 1) return {}
  const last = earlier.at(-1)
  // The attempt just before left its own word when it threw; without one, it went silent.
  const after = last?.attempt === attempt - 1 ? (last.stage === 'failed' ? 'error' : 'stalled') : stalled > 0 ? 'stalled' : 'error'
  const retried: RetryRecord = { attempt, after, earlierProgress: earlier }
  const acted = earlier.find((record) => record.goals.length > 0)
  if (!acted || repeatable) return { retried }
  const goal = acted.goals.at(-1)!
  const ended = acted.stage === 'failed' ? 'failed' : 'stopped answering'
  return {
    retried,
    interrupted:
      `Attempt ${acted.attempt} (worker ${acted.worker}) had started goals[${goal.index}]${goal.state === 'finished' ? ', which finished,' : ''} and then ${ended}; ` +
      'a goal may have acted (a click may have sent a form), so this attempt does not run the goals again. Set repeatable: true on jobs whose goals are safe to repeat.',
  }
}

/** The record of one attempt, kept in memory and written whole to the job's progress at every step. */
export class AttemptLog {
  readonly record: AttemptRecord
  readonly #earlier: AttemptRecord[]
  readonly #write: (progress: JobProgress) => Promise<void>

  constructor(attempt: number, worker: string, earlier: AttemptRecord[], write: (progress: JobProgress) => Promise<void>) {
    this.record = { attempt, worker, stage: 'opening', goals: [] }
    this.#earlier = earlier
    this.#write = write
  }

  /** Writes the record as it stands now (after `change`); resolves once Redis has it. */
  async update(change: (record: AttemptRecord) => void = () => {}): Promise<void> {
    change(this.record)
    await this.#write({ attempts: [...this.#earlier, structuredClone(this.record)] })
  }

  goalStarted(index: number): Promise<void> {
    return this.update((record) => {
      record.stage = 'goal'
      record.goals.push({ index, state: 'started' })
    })
  }

  goalFinished(index: number, status: 'success' | 'error'): Promise<void> {
    return this.update((record) => {
      const goal = record.goals.find((entry) => entry.index === index)!
      goal.state = 'finished'
      goal.status = status
    })
  }
}
