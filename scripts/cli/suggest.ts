import { editDistance } from '#lib/platform/text/edit-distance.ts'

/**
 * What the CLI says when it does not know what was typed: the command, subcommand or option named,
 * with the closest known one. Command names have one or two words ("client issue",
 * "seed-transactions"); the first word of a two-word name is its group ("client").
 */

const closeEnough = (distance: number, name: string) => distance <= Math.max(2, Math.floor(name.length / 3))

/** The candidate nearest to `typed` by edit distance, if one is close (or `always`, the nearest at all). */
function nearest(typed: string, candidates: readonly string[], always = false): string | undefined {
  let best: { name: string; distance: number } | undefined
  for (const name of candidates) {
    const distance = editDistance(typed.slice(0, 64), name)
    if (!best || distance < best.distance) best = { name, distance }
  }
  return best && (always || closeEnough(best.distance, best.name)) ? best.name : undefined
}

/**
 * The message for arguments that name no command: an unknown subcommand of a known group names the
 * group's closest subcommand (and lists the group's commands); a group alone asks for one of its
 * subcommands; anything else is named with the closest command, if one is close.
 */
export function unknownCommandMessage(argv: readonly string[], names: readonly string[]): string {
  const [first = '', second] = argv
  const groupCommands = names.filter((name) => name.startsWith(`${first} `))
  if (groupCommands.length) {
    const list = `The ${first} commands: ${groupCommands.join(', ')}.`
    if (second === undefined || second.startsWith('-')) return `"${first}" needs a subcommand. ${list}`
    const subcommands = groupCommands.map((name) => name.slice(first.length + 1))
    const closest = nearest(second, subcommands, true)
    return `Unknown subcommand "${second}" of "${first}". Did you mean "${first} ${closest}"? ${list}`
  }
  const typed = argv
    .slice(0, 2)
    .filter((word) => !word.startsWith('-'))
    .join(' ')
  // A one-word name is compared with the first word typed, a two-word name with the first two.
  let best: { name: string; distance: number } | undefined
  for (const name of names) {
    const asked = typed.split(' ').slice(0, name.split(' ').length).join(' ')
    const distance = editDistance(asked.slice(0, 64), name)
    if (!best || distance < best.distance) best = { name, distance }
  }
  const closest = best && closeEnough(best.distance, best.name) ? best.name : undefined
  return `Unknown command "${typed}".${closest ? ` Did you mean "${closest}"?` : ''}`
}

/**
 * An unknown option (node:util parseArgs' ERR_PARSE_ARGS_UNKNOWN_OPTION message names it) with the
 * command's closest option; undefined for any other parse error.
 */
export function unknownOptionMessage(message: string, options: readonly string[]): string | undefined {
  const typed = /^Unknown option '(-{1,2}[^']*)'/.exec(message)?.[1]
  if (!typed) return undefined
  const closest = nearest(typed.replace(/^-+/, '').split('=')[0]!, options)
  return `Unknown option "${typed}".${closest ? ` Did you mean "--${closest}"?` : ''}`
}
