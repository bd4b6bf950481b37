// `context.usage`: how full the context window is, sparse (every 10 turns by default), and only
// once it is at least half full — context pressure is worth a line, an empty window is not.
import { rosterDefinition } from '../declaration';
import type { ReminderDefinition } from '../definition';
import { CONTEXT_USAGE } from './catalog/context';

const THRESHOLD = 0.5;
const format = new Intl.NumberFormat('en-US');

export const contextUsage: ReminderDefinition = rosterDefinition(CONTEXT_USAGE, {
	scope: 'all',
	trigger: ({ facts }) => facts.context !== undefined && facts.context.limitTokens > 0 && facts.context.usedTokens / facts.context.limitTokens >= THRESHOLD,
	content: ({ facts }) => {
		const { usedTokens = 0, limitTokens = 1 } = facts.context ?? {};
		const percent = Math.round((usedTokens / limitTokens) * 100);
		return `Context window: ${format.format(usedTokens)} of ${format.format(limitTokens)} tokens in use (${percent}%). Prefer targeted reads (line ranges, Grep) over whole files, and keep command output short.`;
	},
});
