// Offline models for `decisions: 'local'`, `text: 'local'` and `evaluator: 'local'`: a baseline for
// demos and tests that runs with no network and no key. They match words; they do not understand pages.
export { createLocalDecisionModel } from './decision-model.ts'
export { createLocalLanguageModel } from './language-model.ts'
