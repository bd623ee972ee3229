// Shared by the example scripts: one debug line per goal, and failures that fail the command.
const debug = require('debug')('puppeteer-agent')

/** `profiling()` as flat fields for one log line: passed, probability, calls, tokens, usd and times. */
function flat(profiling) {
  const { accuracy, cost, timing, error } = profiling
  return {
    passed: accuracy?.passed,
    probability: accuracy?.probability,
    calls: cost.calls,
    inputTokens: cost.inputTokens,
    outputTokens: cost.outputTokens,
    usd: cost.usd,
    ...timing,
    ...(error && { evaluationError: error.message }),
  }
}

/** Returns a goal or extraction result that succeeded; throws the error of one that failed, so the CLI exits 1. */
function succeeded(result) {
  if (result.status === 'error') throw result.error
  return result
}

/** `key=value` pairs, quoted when needed: a line that `grep` and log tools can read. */
function logfmt(fields) {
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => {
      const text = String(value)
      return `${key}=${/[\s="]/.test(text) || text === '' ? JSON.stringify(text) : text}`
    })
    .join(' ')
}

/**
 * Runs one goal, asks for its profiling (one evaluation request, made whether or not DEBUG prints
 * the line), logs `label status=… passed=… usd=… totalMs=…`, and throws if the goal failed.
 */
async function goal(page, label, text, options) {
  const result = await page.goal(text, options)
  const profiling = await result.profiling()
  debug('%s %s', label, logfmt({ status: result.status, steps: result.steps, ...flat(profiling) }))
  return Object.assign(succeeded(result), { profiled: profiling })
}

module.exports = { flat, succeeded, logfmt, goal }
