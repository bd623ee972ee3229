import type { Browser } from 'puppeteer-core'
import type { CompareRecord } from './record.ts'
import { runOnce, type Task } from './run.ts'
import type { Setup } from './setups.ts'

export interface ComparisonPlan {
  setups: Setup[]
  runs: number
  task: Task
}

/**
 * Runs every setup `runs` times, interleaved (run 1 of every setup, then run 2, …) so that a site or
 * a provider that slows down mid-way does not land on one setup only. Every run is recorded, failed
 * ones included, and the next run starts regardless.
 */
export async function runComparison(
  browser: Browser,
  plan: ComparisonPlan,
  onRecord: (record: CompareRecord, done: number, total: number) => void,
): Promise<CompareRecord[]> {
  const records: CompareRecord[] = []
  const total = plan.setups.length * plan.runs
  for (let run = 1; run <= plan.runs; run++) {
    for (const setup of plan.setups) {
      const record = await runOnce(browser, setup, plan.task, run)
      records.push(record)
      onRecord(record, records.length, total)
    }
  }
  return records
}
