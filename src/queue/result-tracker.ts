// What the producer knows of its jobs while they run: which are running, which ended and how. Each
// job ends once here whatever the events say: a completed event seen twice, or seen both from the
// stream and from a look-up, counts once.
import type { JobResult, ProduceProgress, ProducedResult } from '../../types/queue.d.ts'

export class ResultTracker {
  readonly #order: string[]
  readonly #ids: Set<string>
  readonly #ended = new Map<string, ProducedResult>()
  readonly #running = new Set<string>()
  readonly #onProgress: ((progress: ProduceProgress) => void) | undefined
  #existing = 0
  #wake: (() => void) | undefined

  constructor(ids: string[], onProgress?: (progress: ProduceProgress) => void) {
    this.#order = ids
    this.#ids = new Set(ids)
    this.#onProgress = onProgress
  }

  get progress(): ProduceProgress {
    const ended = [...this.#ended.values()]
    return {
      total: this.#order.length,
      completed: ended.filter((entry) => entry.state === 'completed').length,
      failed: ended.filter((entry) => entry.state === 'failed').length,
      active: this.#running.size,
      existing: this.#existing,
    }
  }

  /** A job that was in the queue under its id before this producer added it. */
  existing(): void {
    this.#existing++
  }

  active(id: string): void {
    if (!this.#isPending(id)) return
    this.#running.add(id)
    this.#changed()
  }

  completed(id: string, result: JobResult): void {
    this.#end(id, { id, state: 'completed', result })
  }

  failed(id: string, error: string, attempts: number): void {
    this.#end(id, { id, state: 'failed', error, attempts })
  }

  pending(): string[] {
    return this.#order.filter((id) => this.#isPending(id))
  }

  /** Resolves true once every job has ended, or false when `ms` passed with no job ending. */
  settledWithin(ms: number): Promise<boolean> {
    if (this.#ended.size === this.#ids.size) return Promise.resolve(true)
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout
      const quiet = () => {
        this.#wake = undefined
        resolve(false)
      }
      timer = setTimeout(quiet, ms)
      this.#wake = () => {
        clearTimeout(timer)
        if (this.#ended.size < this.#ids.size) {
          timer = setTimeout(quiet, ms)
          return
        }
        this.#wake = undefined
        resolve(true)
      }
    })
  }

  results(): ProducedResult[] {
    return this.#order.flatMap((id) => this.#ended.get(id) ?? [])
  }

  #isPending(id: string): boolean {
    return this.#ids.has(id) && !this.#ended.has(id)
  }

  #end(id: string, entry: ProducedResult): void {
    if (!this.#isPending(id)) return
    this.#ended.set(id, entry)
    this.#running.delete(id)
    this.#changed()
    this.#wake?.()
  }

  #changed(): void {
    this.#onProgress?.(this.progress)
  }
}
