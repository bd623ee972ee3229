// The product corpus's metric (scrapinghub/product-extraction-benchmark, evaluate.py as its README
// describes it): per page and field, one predicted value against a list of acceptable ones. A right
// value is a true positive; a wrong one is both a false positive and a false negative; a missing one
// where the truth has a value is a false negative. Price is compared as a decimal number; a SKU
// after removing what is not a letter or digit ("924/9556" is "9249556"); availability is InStock
// or OutOfStock, a missing one counting as InStock, as the corpus fills it for every system.

export type Field = 'price' | 'sku' | 'availability'
export const FIELDS: readonly Field[] = ['price', 'sku', 'availability']

export type Verdict = 'right' | 'wrong' | 'missing' | 'extra' | 'none'

export interface Truth {
  price?: string[]
  sku?: string[]
  availability?: string[]
}

// The readings of schema.org's ItemAvailability that mean the product cannot be bought now.
const OUT_OF_STOCK = new Set(['OutOfStock', 'SoldOut', 'Discontinued'])

function priceValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined
  if (typeof value !== 'string' || !/^\s*-?\d+(\.\d+)?\s*$/.test(value)) return undefined
  return Number(value)
}

function codeValue(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined
  const code = String(value).toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')
  return code || undefined
}

/** InStock or OutOfStock, as the corpus reads any availability (missing is InStock). */
export function stockValue(value: unknown): 'InStock' | 'OutOfStock' {
  return typeof value === 'string' && OUT_OF_STOCK.has(value.replace(/^.*[/:]/, '')) ? 'OutOfStock' : 'InStock'
}

/** How one predicted value scores against the truth of its field. */
export function verdict(field: Field, predicted: unknown, truth: readonly string[] | undefined): Verdict {
  if (field === 'availability') {
    if (!truth?.length) return 'none'
    return truth.includes(stockValue(predicted)) ? 'right' : 'wrong'
  }
  const read = field === 'price' ? priceValue : codeValue
  const value = read(predicted)
  if (!truth?.length) return value === undefined ? 'none' : 'extra'
  if (value === undefined) return 'missing'
  return truth.some((accepted) => read(accepted) === value) ? 'right' : 'wrong'
}

export interface FieldScore {
  precision: number
  recall: number
  f1: number
  support: number
}

/** Precision, recall and F1 of a field over its pages' verdicts. */
export function score(verdicts: readonly Verdict[]): FieldScore {
  let truePositives = 0
  let falsePositives = 0
  let falseNegatives = 0
  for (const item of verdicts) {
    if (item === 'right') truePositives++
    if (item === 'wrong' || item === 'extra') falsePositives++
    if (item === 'wrong' || item === 'missing') falseNegatives++
  }
  const precision = truePositives + falsePositives ? truePositives / (truePositives + falsePositives) : 0
  const recall = truePositives + falseNegatives ? truePositives / (truePositives + falseNegatives) : 0
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0
  return { precision, recall, f1, support: truePositives + falseNegatives }
}
