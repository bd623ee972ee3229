import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4Prompt } from '@ai-sdk/provider'
import type { ChecklistPrompt } from '../../src/checklist/checklist-schema.ts'
import { createLocalLanguageModel } from '../../src/local/index.ts'
import { textResult, tokenUsage } from '../../test/helpers/language-models.ts'
import type { OracleStep } from '../../test/fixtures/reach/case-types.ts'
import { userText } from '../reach/oracle.ts'
import { writeCapableChecklist } from './capable-writer.ts'

// Who writes the goal's checklist in bench:outcome: the capable writer (capable-writer.ts), the
// library's offline writer (src/local), or nobody (the checklist off). The oracle's text model types
// the steps' texts; the checklist request goes to the writer instead, told apart by its instructions,
// which are the checklist writer's.

export const WRITERS = ['capable', 'local', 'none'] as const
export type Writer = (typeof WRITERS)[number]

/** The text model of a run: `text` for every request but the checklist's, which `writer` answers. */
export function withChecklistWriter(text: LanguageModelV4, writer: Exclude<Writer, 'none'>, steps: readonly OracleStep[]): LanguageModelV4 {
  const write = writer === 'local' ? localWriter() : capableWriter(steps)
  return {
    specificationVersion: 'v4',
    provider: text.provider,
    modelId: text.modelId,
    supportedUrls: {},
    doGenerate: (options) => (isChecklistRequest(options.prompt) ? write(options) : text.doGenerate(options)),
    doStream: (options) => text.doStream(options),
  }
}

type Write = (options: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4GenerateResult>

/** The library's offline writer (src/local), which writes a checklist from the goal's words. */
function localWriter(): Write {
  const model = createLocalLanguageModel()
  return (options) => model.doGenerate(options)
}

function capableWriter(steps: readonly OracleStep[]): Write {
  return async (options) => {
    const request = userText(options.prompt)
    const items = writeCapableChecklist(steps, checklistPromptOf(request), request)
    return textResult(JSON.stringify({ items }), { usage: tokenUsage(500, 100) })
  }
}

/** The checklist writer's instructions speak of the checklist; a TYPE_TEXT request's of the text to type. */
export function isChecklistRequest(prompt: LanguageModelV4Prompt): boolean {
  return prompt.some((message) => message.role === 'system' && /\bchecklist\b/i.test(message.content))
}

function checklistPromptOf(request: string): ChecklistPrompt {
  let prompt: Partial<ChecklistPrompt> | undefined
  try {
    prompt = JSON.parse(request) as Partial<ChecklistPrompt>
  } catch {
    prompt = undefined
  }
  if (typeof prompt?.goal !== 'string' || !Array.isArray(prompt.controls)) {
    throw new Error('bench:outcome: the checklist request is not the JSON object checklistPrompt writes (a goal and controls)')
  }
  return prompt as ChecklistPrompt
}
