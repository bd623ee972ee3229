import { median, share } from '../common/stats.ts'
import type { Inspection } from './inspect.ts'
import type { Precision } from './respond.ts'
import type { TaskResult } from './task.ts'

// The figures of bench:reach: one record per case, the totals over the suite and the targets they
// are judged against. Everything here is plain data, so `--json` can hold it and two runs (the code
// before and after a change) can be compared field by field.

export interface CaseRecord {
  id: string
  page: string
  pattern: string
  inspection: Inspection
  precision: Precision
  task: TaskResult
  /** Wall time of the whole case. */
  ms: number
}

export interface Totals {
  cases: number
  offered: number
  /** `loose`: controls with any offered element holding their text, one element standing for several. */
  recall: { matched: number; listed: number; rate: number | undefined; loose: number }
  precision: { responding: number; clicked: number; rate: number | undefined; notUsable: number; skipped: number }
  tasks: { completed: number; of: number }
  duplicates: number
  /** `fieldNames` entries no offered field carried: an empty or wrong name where the page shows a label. */
  fieldNameMisses: number
  fieldNamesListed: number
  unnamedFields: number
  inert: number
  stateMisses: number
  statesListed: number
  maxRequestChars: number | undefined
  medianObserveMs: number | undefined
  /** Cases whose page could not be observed at all. */
  brokenPages: number
}

export const TARGETS = { recall: 0.98, precision: 0.9, duplicates: 0, fieldNameMisses: 0, maxRequestChars: 40_000 } as const

export function clicked(precision: Precision): number {
  return precision.probes.filter((probe) => probe.responded !== undefined).length
}

export function responding(precision: Precision): number {
  return precision.probes.filter((probe) => probe.responded === true).length
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0)

export function totals(records: readonly CaseRecord[]): Totals {
  const inspections = records.map((record) => record.inspection)
  const matched = sum(inspections.map((inspection) => inspection.recall.matched))
  const listed = sum(inspections.map((inspection) => inspection.recall.listed))
  const answered = sum(records.map((record) => responding(record.precision)))
  const used = sum(records.map((record) => clicked(record.precision)))
  const sizes = inspections.flatMap((inspection) => (inspection.requestChars === undefined ? [] : [inspection.requestChars]))
  const observeMedians = inspections.flatMap((inspection) => (inspection.medianObserveMs === undefined ? [] : [inspection.medianObserveMs]))
  return {
    cases: records.length,
    offered: sum(inspections.map((inspection) => inspection.offered.length)),
    recall: { matched, listed, rate: share(matched, listed), loose: sum(inspections.map((inspection) => inspection.recall.loose)) },
    precision: {
      responding: answered,
      clicked: used,
      rate: share(answered, used),
      notUsable: sum(records.map((record) => record.precision.probes.length - clicked(record.precision))),
      skipped: sum(records.map((record) => record.precision.skipped)),
    },
    tasks: { completed: records.filter((record) => record.task.completed).length, of: records.length },
    duplicates: sum(inspections.map((inspection) => inspection.duplicates.length)),
    fieldNameMisses: sum(inspections.map((inspection) => inspection.fieldNames.misses.length)),
    fieldNamesListed: sum(inspections.map((inspection) => inspection.fieldNames.listed)),
    unnamedFields: sum(inspections.map((inspection) => inspection.unnamedFields.length)),
    inert: sum(inspections.map((inspection) => inspection.inert.length)),
    stateMisses: sum(inspections.map((inspection) => inspection.states.misses.length)),
    statesListed: sum(inspections.map((inspection) => inspection.states.listed)),
    maxRequestChars: sizes.length === 0 ? undefined : Math.max(...sizes),
    medianObserveMs: observeMedians.length === 0 ? undefined : Math.round(median(observeMedians)! * 10) / 10,
    brokenPages: inspections.filter((inspection) => inspection.error !== undefined).length,
  }
}

export interface TargetCheck {
  name: string
  value: string
  target: string
  met: boolean | undefined
}

const percent = (rate: number | undefined) => (rate === undefined ? '–' : `${(rate * 100).toFixed(1)}%`)

export function checkTargets(total: Totals): TargetCheck[] {
  return [
    {
      name: 'Element recall',
      value: `${percent(total.recall.rate)} (${total.recall.matched} of ${total.recall.listed})`,
      target: `≥ ${TARGETS.recall * 100}%`,
      met: total.recall.rate === undefined ? undefined : total.recall.rate >= TARGETS.recall,
    },
    {
      name: 'Precision (offered elements that respond)',
      value: `${percent(total.precision.rate)} (${total.precision.responding} of ${total.precision.clicked})`,
      target: `≥ ${TARGETS.precision * 100}%`,
      met: total.precision.rate === undefined ? undefined : total.precision.rate >= TARGETS.precision,
    },
    { name: 'Duplicates', value: String(total.duplicates), target: '0', met: total.duplicates === TARGETS.duplicates },
    {
      name: 'Fields without the name the page shows',
      value: `${total.fieldNameMisses} of ${total.fieldNamesListed}`,
      target: '0',
      met: total.fieldNameMisses === TARGETS.fieldNameMisses,
    },
    {
      name: 'Largest decision request',
      value: total.maxRequestChars === undefined ? '–' : `${total.maxRequestChars.toLocaleString('en')} characters`,
      target: `< ${TARGETS.maxRequestChars.toLocaleString('en')}`,
      met: total.maxRequestChars === undefined ? undefined : total.maxRequestChars < TARGETS.maxRequestChars,
    },
  ]
}
