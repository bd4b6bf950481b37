// The slash-command registry: each command declared once (name, arguments, summary, run). The
// composer's `/` hint list is this registry as the host sends it; the message a person sends is
// matched here once, by its first word, and a command's own parser reads the rest.
import type { SlashCommandView } from '../protocol/messages';
import type { FeatureViewPort } from './viewPort';

export interface SlashCommand {
	/** With its slash: `/compact`. */
	readonly name: string;
	/** How its arguments are written, for the hint: `[what to keep]`. */
	readonly args: string;
	readonly summary: string;
	/** Runs the command the trimmed message is (it starts with the name); what it has to say goes to `view`. */
	run(text: string, view: FeatureViewPort): void;
}

export class SlashCommands {
	private readonly byName = new Map<string, SlashCommand>();

	constructor(commands: Iterable<SlashCommand>) {
		for (const command of commands) {
			if (!/^\/[a-z][a-z0-9-]*$/.test(command.name)) {
				throw new Error(`A slash command's name is a slash and a lowercase word; got ${JSON.stringify(command.name)}.`);
			}
			if (this.byName.has(command.name)) {
				throw new Error(`The slash command ${command.name} is registered twice.`);
			}
			this.byName.set(command.name, command);
		}
	}

	/** What the composer's hint lists, in registration order. */
	views(): SlashCommandView[] {
		return [...this.byName.values()].map(({ name, args, summary }) => ({ name, args, summary }));
	}

	/** Runs the command `text` is, if it is one (`/compactx` is a message, not `/compact`); true when it ran. */
	run(text: string, view: FeatureViewPort): boolean {
		const trimmed = text.trim();
		const name = /^\/\S+/.exec(trimmed)?.[0];
		const command = name === undefined ? undefined : this.byName.get(name);
		if (!command) {
			return false;
		}
		command.run(trimmed, view);
		return true;
	}
}
