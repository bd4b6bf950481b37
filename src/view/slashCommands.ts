// The slash-command registry: each command declared once (name, arguments, summary, run). The
// composer's `/` hint list is this registry as the host sends it; the message a person sends is
// matched here once, by its first word, and a command's own parser reads the rest. The built-in
// commands are given at construction and never change; commands that come and go (an MCP server's
// prompts) come from sources, are told to the composer again at every change, and never take the
// name of a built-in one.
import { Emitter, type Event } from '../base/event';
import { Disposable } from '../base/lifecycle';
import type { Logger } from '../base/log';
import type { DeclaredArgument } from '../protocol/commandArguments';
import { MAX_SLASH_COMMANDS, type SlashCommandView } from '../protocol/slashCommands';
import type { FeatureViewPort } from './viewPort';

/** A message a command sends as the person's own: `text` goes to the model, `command` (as typed) labels their row. */
export interface CommandMessage {
	readonly text: string;
	readonly command: string;
}

/** What a running command may do: what a feature's view part may, and send a message as the person's. */
export interface CommandPort extends FeatureViewPort {
	submit(message: CommandMessage): void;
}

export interface SlashCommand {
	/** With its slash: `/compact`. */
	readonly name: string;
	/** How its arguments are written, for the hint: `[what to keep]`. */
	readonly args: string;
	readonly summary: string;
	/** Its arguments in order, for the composer to tell which one is being typed (commandArguments.ts). */
	readonly arguments?: readonly DeclaredArgument[];
	/** Runs the command the trimmed message is (it starts with the name); what it has to say goes to `view`. */
	run(text: string, view: CommandPort): void;
	/** Values for `argument` as typed so far, the arguments before it in `context`; absent: nothing to complete. */
	complete?(argument: string, value: string, context: Readonly<Record<string, string>>, signal: AbortSignal): Promise<readonly string[]>;
}

/** Commands that come and go. */
export interface SlashCommandSource {
	current(): readonly SlashCommand[];
	readonly onDidChange: Event<void>;
}

/** A built-in command's name: a slash and a lowercase word. */
const BUILT_IN_NAME = /^\/[a-z][a-z0-9-]*$/u;
/** A command from a source may be dot-scoped: `/mcp.server.prompt`. */
const SOURCED_NAME = /^\/[a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*$/u;

function viewOf(command: SlashCommand): SlashCommandView {
	const { name, args, summary } = command;
	const declared = command.arguments ?? [];
	return {
		name,
		args,
		summary,
		...(declared.length > 0 ? { arguments: declared.map(({ name: argument, required }) => ({ name: argument, required })) } : {}),
		...(command.complete && declared.length > 0 ? { completes: true as const } : {}),
	};
}

export class SlashCommands extends Disposable {
	private readonly builtIn = new Map<string, SlashCommand>();
	private sourced = new Map<string, SlashCommand>();
	private readonly _onDidChange = this._register(new Emitter<SlashCommandView[]>());
	/** A source's commands changed: the whole list now. */
	readonly onDidChange: Event<SlashCommandView[]> = this._onDidChange.event;

	constructor(
		commands: Iterable<SlashCommand>,
		private readonly sources: readonly SlashCommandSource[] = [],
		private readonly log?: Logger,
	) {
		super();
		for (const command of commands) {
			if (!BUILT_IN_NAME.test(command.name)) {
				throw new Error(`A slash command's name is a slash and a lowercase word; got ${JSON.stringify(command.name)}.`);
			}
			if (this.builtIn.has(command.name)) {
				throw new Error(`The slash command ${command.name} is registered twice.`);
			}
			this.builtIn.set(command.name, command);
		}
		this.sourced = this.collect();
		for (const source of sources) {
			this._register(source.onDidChange(() => {
				this.sourced = this.collect();
				this._onDidChange.fire(this.views());
			}));
		}
	}

	private collect(): Map<string, SlashCommand> {
		const sourced = new Map<string, SlashCommand>();
		for (const source of this.sources) {
			for (const command of source.current()) {
				if (!SOURCED_NAME.test(command.name)) {
					this.log?.warn(`The slash command ${JSON.stringify(command.name)} is left out: a name is a slash and lowercase words joined by dots.`);
				} else if (this.builtIn.has(command.name) || sourced.has(command.name)) {
					this.log?.warn(`The slash command ${command.name} is left out: another command has that name.`);
				} else {
					sourced.set(command.name, command);
				}
			}
		}
		return sourced;
	}

	/** What the composer's hint lists: the built-in commands in registration order, then the sources'. */
	views(): SlashCommandView[] {
		return [...this.builtIn.values(), ...this.sourced.values()].slice(0, MAX_SLASH_COMMANDS).map(viewOf);
	}

	private find(name: string): SlashCommand | undefined {
		return this.builtIn.get(name) ?? this.sourced.get(name);
	}

	/** Runs the command `text` is, if it is one (`/compactx` is a message, not `/compact`); true when it ran. */
	run(text: string, view: CommandPort): boolean {
		const trimmed = text.trim();
		const name = /^\/\S+/u.exec(trimmed)?.[0];
		const command = name === undefined ? undefined : this.find(name);
		if (!command) {
			return false;
		}
		command.run(trimmed, view);
		return true;
	}

	/** The values `command` offers for `argument` as typed so far; none for a command that completes nothing or is gone. */
	complete(command: string, argument: string, value: string, context: Readonly<Record<string, string>>, signal: AbortSignal): Promise<readonly string[]> {
		const found = this.find(command);
		const declared = found?.arguments?.some((candidate) => candidate.name === argument) === true;
		return found?.complete && declared ? found.complete(argument, value, context, signal) : Promise.resolve([]);
	}
}
