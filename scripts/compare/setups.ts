import type { GoalOptions, ReasoningLevel } from '../../types/index.d.ts'
import { REASONING_LEVELS } from '../../src/options.ts'
import { FlagError } from '../common/flags.ts'

/** One model setup as the records name it: `decisions: 'none'` makes the text model decide. */
export interface Setup {
  decisions: string
  text: string
  reasoning: ReasoningLevel
}

export const NO_DECISION_MODEL = 'none'

/** Every decision model paired with every text model, once per reasoning level; unknown levels are refused. */
export function buildSetups(decisions: readonly string[], texts: readonly string[], reasoning: readonly string[]): Setup[] {
  for (const level of reasoning) {
    if (!(REASONING_LEVELS as readonly string[]).includes(level)) {
      throw new FlagError(`Unknown reasoning level ${JSON.stringify(level)} in --reasoning. Known levels: ${REASONING_LEVELS.join(', ')}.`)
    }
  }
  const setups: Setup[] = []
  for (const decision of unique(decisions)) {
    for (const text of unique(texts)) {
      for (const level of unique(reasoning)) setups.push({ decisions: decision, text, reasoning: level as ReasoningLevel })
    }
  }
  return setups
}

/** The model options of a setup, as `page.goal()` and `page.extract()` take them. */
export function setupOptions(setup: Setup, evaluator: string): GoalOptions {
  return {
    decisions: setup.decisions === NO_DECISION_MODEL ? false : setup.decisions,
    text: setup.text,
    reasoning: setup.reasoning,
    evaluator,
  }
}

/** An all-offline comparison stays offline: with only `local` models the evaluator is `local` too. */
export function defaultEvaluator(setups: readonly Setup[], libraryDefault: string): string {
  const allLocal = setups.every((setup) => [setup.decisions, setup.text].every((model) => model === 'local' || model === NO_DECISION_MODEL))
  return allLocal ? 'local' : libraryDefault
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
