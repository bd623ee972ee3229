#!/usr/bin/env node
import { main } from './main.ts'

function writer(stream: NodeJS.WriteStream): (text: string) => Promise<void> {
  return (text) => new Promise((resolve) => stream.write(text, () => resolve()))
}

const code = await main(process.argv.slice(2), {
  write: writer(process.stdout),
  writeError: writer(process.stderr),
  env: process.env,
  exit: (exitCode) => process.exit(exitCode),
})
// A script may leave servers or timers behind; the command is over once its result is printed.
process.exit(code)
