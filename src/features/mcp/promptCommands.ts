// The connected MCP servers' prompts as slash commands (docs/mcp.md#prompts): `/mcp.<server>.<prompt>`,
// each name made a command word (lowercase, `-` for every run of other characters), its arguments
// the hint (`<required> [optional]`), completed by the server when it offers completion. Names
// that come out the same are left out, all of them, and said; so is a name with nothing left.
// Running one reads its arguments (src/protocol/commandArguments.ts), asks the server for the
// prompt and sends its text as the person's message, labelled with the command; a missing
// argument or a server's error is said, the typed command given back, and nothing sent.
import { errorMessage } from '../../base/errors';
import type { Event } from '../../base/event';
import type { ServerPrompts } from '../../mcp/prompts';
import type { McpCompletion, McpPromptInfo, McpPromptResult } from '../../mcp/session';
import { argumentsHint, parseArguments } from '../../protocol/commandArguments';
import type { CommandPort, SlashCommand } from '../../view/slashCommands';
import { promptMessage } from './promptMessage';

/** What the commands need of the window's prompts (McpPrompts, src/mcp/prompts.ts). */
export interface PromptCatalog {
	servers(): readonly ServerPrompts[];
	readonly onDidChange: Event<void>;
	get(server: string, prompt: string, args: Readonly<Record<string, string>>, signal: AbortSignal): Promise<McpPromptResult>;
	complete(
		server: string,
		prompt: string,
		argument: { readonly name: string; readonly value: string },
		context: Readonly<Record<string, string>>,
		signal: AbortSignal,
	): Promise<McpCompletion>;
}

/** The longest word a server's or a prompt's name becomes. */
const WORD_CHARS = 60;
const SUMMARY_CHARS = 300;

/** A name as one word of a command: accents dropped, lowercase, `-` for every run of other characters. */
export function commandWord(name: string): string {
	const word = name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/gu, '-').replace(/^-+|-+$/gu, '');
	return word.slice(0, WORD_CHARS).replace(/-+$/u, '');
}

/** The command a server's prompt is, before collisions: undefined when a name has nothing left. */
export function promptCommandName(server: string, prompt: string): string | undefined {
	const serverWord = commandWord(server);
	const promptWord = commandWord(prompt);
	return serverWord === '' || promptWord === '' ? undefined : `/mcp.${serverWord}.${promptWord}`;
}

function oneLine(text: string, chars: number): string {
	const line = text.replace(/\s+/gu, ' ').trim();
	return line.length > chars ? `${line.slice(0, chars - 1)}…` : line;
}

interface Target {
	readonly name: string;
	readonly server: string;
	readonly prompt: McpPromptInfo;
	readonly completions: boolean;
}

export interface PromptCommandSet {
	readonly commands: readonly SlashCommand[];
	/** What was left out, and why: for the chat. */
	readonly problems: readonly string[];
}

/** The reason shown with the command given back is bounded like a notice. */
const REASON_CHARS = 1900;

async function run(catalog: PromptCatalog, target: Target, text: string, view: CommandPort, signal: AbortSignal): Promise<void> {
	const { name, server, prompt } = target;
	const refuse = (reason: string): void => {
		view.send({ type: 'composer.restore', text, reason: reason.length > REASON_CHARS ? `${reason.slice(0, REASON_CHARS - 1)}…` : reason, cause: 'command' });
	};
	const parsed = parseArguments(text.slice(name.length), prompt.arguments);
	if (parsed.surplus.length > 0) {
		refuse(prompt.arguments.length === 0
			? `${name} takes no arguments. Nothing was sent.`
			: `${name} takes ${prompt.arguments.length} arguments, all given by name; "${oneLine(parsed.surplus.join(' '), 100)}" is none of them. Nothing was sent.`);
		return;
	}
	if (parsed.missing.length > 0) {
		const needs = parsed.missing.map((argument) => `<${argument}>`).join(' and ');
		refuse(`${name} needs ${needs}: ${name} ${argumentsHint(prompt.arguments)} (quote a value with spaces). Nothing was sent.`);
		return;
	}
	let message: string;
	try {
		message = promptMessage(await catalog.get(server, prompt.name, parsed.values, signal));
	} catch (error) {
		const why = errorMessage(error).trim();
		refuse(`The MCP server "${server}" did not give its prompt ${prompt.name}: ${why}${/[.!?]$/u.test(why) ? '' : '.'} Nothing was sent.`);
		return;
	}
	if (message.trim() === '') {
		refuse(`The prompt ${prompt.name} of the MCP server "${server}" has no text to send. Nothing was sent.`);
		return;
	}
	view.submit({ text: message, command: text });
}

function commandOf(catalog: PromptCatalog, target: Target, signal: AbortSignal): SlashCommand {
	const { name, server, prompt, completions } = target;
	const about = prompt.description ?? prompt.title ?? `the prompt ${prompt.name}`;
	const from = ` (prompt of the MCP server ${server})`;
	return {
		name,
		args: argumentsHint(prompt.arguments),
		summary: `${oneLine(about, SUMMARY_CHARS - from.length)}${from}`,
		arguments: prompt.arguments.map(({ name: argument, required }) => ({ name: argument, required })),
		run: (text, view) => {
			void run(catalog, target, text, view, signal);
		},
		...(completions && prompt.arguments.length > 0
			? {
					complete: async (argument: string, value: string, context: Readonly<Record<string, string>>, asked: AbortSignal) =>
						(await catalog.complete(server, prompt.name, { name: argument, value }, context, asked)).values,
				}
			: {}),
	};
}

/** The commands of the catalog's prompts now; `signal` ends the prompts they are still asking for. */
export function promptCommands(catalog: PromptCatalog, signal: AbortSignal): PromptCommandSet {
	const byName = new Map<string, Target[]>();
	const problems: string[] = [];
	for (const { server, prompts, completions } of catalog.servers()) {
		for (const prompt of prompts) {
			const name = promptCommandName(server, prompt.name);
			if (name === undefined) {
				problems.push(`The prompt "${prompt.name}" of the MCP server "${server}" is not a slash command: no letter or digit of its names is left for one.`);
				continue;
			}
			byName.set(name, [...(byName.get(name) ?? []), { name, server, prompt, completions }]);
		}
	}
	const commands: SlashCommand[] = [];
	for (const [name, targets] of byName) {
		const [target, ...others] = targets;
		if (target && others.length === 0) {
			commands.push(commandOf(catalog, target, signal));
		} else {
			const which = targets.map(({ server, prompt }) => `"${prompt.name}" of "${server}"`).join(', ');
			problems.push(`The MCP prompts ${which} would all be ${name}: none of them is a slash command. Rename one (or its server) to use them.`);
		}
	}
	return { commands, problems };
}
