// A slash command as the composer's hint shows it (the registry is src/view/slashCommands.ts), and
// the messages of the registry's commands that come and go and of their arguments' completion.
import * as z from 'zod';
import { seq } from './sequence';

/** How many commands the composer is told of at most. */
export const MAX_SLASH_COMMANDS = 1000;

export const SlashCommandView = z.object({
	/** With its slash: `/compact`, `/mcp.everything.args-prompt`. */
	name: z.string().min(2).max(200),
	args: z.string().max(1000),
	summary: z.string().max(300),
	/** Its arguments in order, when the composer may complete their values (commandArguments.ts reads them). */
	arguments: z.array(z.object({ name: z.string().min(1).max(100), required: z.boolean() })).max(50).optional(),
	/** The host offers values for its arguments as they are typed (`commands.complete`). */
	completes: z.literal(true).optional(),
});
export type SlashCommandView = z.infer<typeof SlashCommandView>;

/** How many values an argument's completion carries at most (the MCP spec's own limit). */
export const MAX_COMPLETION_VALUES = 100;

export const SLASH_HOST_MESSAGES = [
	/** The slash commands changed (an MCP server connected, dropped or changed its prompts): the whole list. */
	z.object({ type: z.literal('commands.changed'), seq, commands: z.array(SlashCommandView).max(MAX_SLASH_COMMANDS) }),
	/** The answer to `commands.complete`: values for the argument, best first (none when there are none or it failed). */
	z.object({
		type: z.literal('commands.completed'),
		seq,
		requestId: z.string().min(1).max(100),
		values: z.array(z.string().max(1000)).max(MAX_COMPLETION_VALUES),
	}),
] as const;

export const SLASH_VIEW_MESSAGES = [
	/** The person is typing `argument` of the slash command `command`: the values it may take; a newer request cancels the older. */
	z.object({
		type: z.literal('commands.complete'),
		requestId: z.string().min(1).max(100),
		command: z.string().min(2).max(200),
		argument: z.string().min(1).max(100),
		value: z.string().max(1000),
		/** The arguments typed before it. */
		context: z.record(z.string().max(100), z.string().max(1000)),
	}),
] as const;
