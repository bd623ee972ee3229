// Moved to test/helpers/goal-scripted-model.ts; this path stays only for scripts/bench-steps.ts, which imports it.
export * from './helpers/goal-scripted-model.ts'
