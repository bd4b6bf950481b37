// A slash command as the composer's hint shows it (the registry is src/view/slashCommands.ts).
import * as z from 'zod';

export const SlashCommandView = z.object({
	/** With its slash: `/compact`. */
	name: z.string().min(2).max(40),
	args: z.string().max(200),
	summary: z.string().max(300),
});
export type SlashCommandView = z.infer<typeof SlashCommandView>;
