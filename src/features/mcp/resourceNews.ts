// `mcp.resources-updated`: the resources the model read in this chat (McpReadResource) that their
// server says changed. Updates add up per resource until a request that carried them went out: one
// line per resource per delivery whatever their number, with the count and the time of the last;
// what came while that request was on the way stays for the next. Content-free: the model reads
// the resource again if it needs it.
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { MCP_RESOURCES_UPDATED } from './mcpReminders';
import { clockTime } from '../../base/time';
import { serversLabel } from './serverNews';

interface Updates {
	readonly server: string;
	readonly uri: string;
	count: number;
	last: number;
}

export class ResourceNews {
	/** Oldest first; one a WAIT rendered is sealed (it says what it carried), later updates start another. */
	private entries: Updates[] = [];
	private readonly sealed = new WeakSet<Updates>();

	constructor(private readonly now: () => number) {}

	updated(server: string, uri: string): void {
		const open = this.entries.find((entry) => entry.server === server && entry.uri === uri && !this.sealed.has(entry));
		if (open) {
			open.count++;
			open.last = this.now();
		} else {
			this.entries.push({ server, uri, count: 1, last: this.now() });
		}
	}

	definition(): ReminderDefinition {
		return rosterDefinition(MCP_RESOURCES_UPDATED, {
			scope: 'session',
			trigger: () => this.entries.length > 0,
			content: () => {
				const carried = this.entries.slice();
				const lines = new Map<string, { server: string; uri: string; count: number; last: number }>();
				for (const entry of carried) {
					this.sealed.add(entry);
					const key = `${entry.server}\u0000${entry.uri}`;
					const line = lines.get(key) ?? { server: entry.server, uri: entry.uri, count: 0, last: 0 };
					line.count += entry.count;
					line.last = Math.max(line.last, entry.last);
					lines.set(key, line);
				}
				const body = [
					'Resources you read from MCP servers changed since you read them (their new content is not included: read them again with McpReadResource before relying on what they said):',
					...[...lines.values()].map(({ server, uri, count, last }) => `- ${sanitizeUntrusted(server)}: ${sanitizeUntrusted(uri)} — updated ${count === 1 ? 'once' : `${count} times`}, last at ${clockTime(last)}`),
				].join('\n');
				return {
					body,
					label: serversLabel(MCP_RESOURCES_UPDATED.label, carried.map((entry) => entry.server)),
					commit: () => {
						this.entries = this.entries.filter((entry) => !carried.includes(entry));
					},
				};
			},
		});
	}
}
