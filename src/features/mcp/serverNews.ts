// What changed on the chat's MCP servers since the model was last told: `mcp.server-state` (a
// server dropped, came back, was given up on) and `mcp.tools-changed` (tools added, removed,
// changed). Each arrives as events from the servers, is kept here per server until a request that
// carried it went out (its commit removes exactly what it carried: what came while it was on the
// way stays for the next), and is said once, with its time: a burst of notifications is one entry.
import { clockTime } from '../../base/time';
import { sanitizeUntrusted } from '../../reminders/envelope';
import { rosterDefinition } from '../../reminders/declaration';
import type { ReminderDefinition } from '../../reminders/definition';
import { mcpToolName } from '../../mcp/names';
import type { ToolListChange } from '../../mcp/serverState';
import { MCP_SERVER_STATE, MCP_TOOLS_CHANGED } from './mcpReminders';

export interface StateNews {
	readonly server: string;
	readonly at: number;
	readonly what: 'dropped' | 'reconnected' | 'gave-up' | 'needs-sign-in';
	readonly message?: string;
}

interface ToolNews {
	readonly at: number;
	readonly added: Set<string>;
	readonly removed: Set<string>;
	readonly changed: Set<string>;
}

/** The most server names a row's label lists before "+N more". */
const LABEL_SERVERS = 3;

/** A delivery's row label with the servers it is about: `MCP tools changed: everything, files`. */
export function serversLabel(label: string, servers: Iterable<string>): string {
	const names = [...new Set(servers)];
	const shown = names.slice(0, LABEL_SERVERS).map((name) => (name.length > 40 ? `${name.slice(0, 39)}…` : name));
	const more = names.length > LABEL_SERVERS ? ` +${names.length - LABEL_SERVERS} more` : '';
	return names.length === 0 ? label : `${label}: ${shown.join(', ')}${more}`;
}

function stateLine(news: StateNews): string {
	const server = sanitizeUntrusted(news.server);
	const why = news.message === undefined ? '' : ` (${sanitizeUntrusted(news.message)})`;
	switch (news.what) {
		case 'dropped':
			return `${clockTime(news.at)} ${server}: disconnected${why}; its tools are not offered until Aside reconnects it.`;
		case 'reconnected':
			return `${clockTime(news.at)} ${server}: reconnected; its tools were listed again. Changes while it was disconnected were not delivered: what you read from it earlier may be out of date.`;
		case 'gave-up':
			return `${clockTime(news.at)} ${server}: Aside stopped trying to reconnect${why}; its tools are not offered until the person restarts it.`;
		case 'needs-sign-in':
			return `${clockTime(news.at)} ${server}: asks the person to sign in again; its tools are not offered until they do.`;
	}
}

export class ServerNews {
	private states: StateNews[] = [];
	/** Per server, oldest first; one that a WAIT rendered is sealed (what it said stays what it carried), later changes start another. */
	private readonly tools = new Map<string, ToolNews[]>();
	private readonly sealed = new WeakSet<ToolNews>();

	constructor(private readonly now: () => number) {}

	state(news: Omit<StateNews, 'at'>): void {
		this.states.push({ ...news, at: this.now() });
	}

	/** A listing's change (never the first one after a server first connected). */
	toolsChanged(server: string, change: ToolListChange): void {
		if (change.initial) {
			return;
		}
		const list = this.tools.get(server) ?? [];
		let news = list.at(-1);
		if (!news || this.sealed.has(news)) {
			news = { at: this.now(), added: new Set<string>(), removed: new Set<string>(), changed: new Set<string>() };
			list.push(news);
		}
		for (const name of change.added) {
			// Removed, then added again before the model was told: it changed, if anything.
			if (news.removed.delete(name)) {
				news.changed.add(name);
			} else {
				news.added.add(name);
			}
		}
		for (const name of change.removed) {
			news.changed.delete(name);
			// Added and removed again before the model was told: nothing to say.
			if (!news.added.delete(name)) {
				news.removed.add(name);
			}
		}
		for (const name of change.changed) {
			if (!news.added.has(name)) {
				news.changed.add(name);
			}
		}
		this.tools.set(server, list.filter((entry) => entry.added.size + entry.removed.size + entry.changed.size > 0));
	}

	/** `mcp.server-state`: every state change not yet delivered, oldest first. */
	stateDefinition(): ReminderDefinition {
		return rosterDefinition(MCP_SERVER_STATE, {
			scope: 'session',
			trigger: () => this.states.length > 0,
			content: () => {
				const carried = this.states.slice();
				const body = ['What happened to the chat\'s MCP servers since you were last told:', ...carried.map((news) => `- ${stateLine(news)}`)].join('\n');
				return {
					body,
					label: serversLabel(MCP_SERVER_STATE.label, carried.map((news) => news.server)),
					commit: () => {
						this.states = this.states.filter((news) => !carried.includes(news));
					},
				};
			},
		});
	}

	/** `mcp.tools-changed`: one paragraph per server whose tools changed, since the model was last told. */
	toolsDefinition(): ReminderDefinition {
		return rosterDefinition(MCP_TOOLS_CHANGED, {
			scope: 'session',
			trigger: () => [...this.tools.values()].some((list) => list.length > 0),
			content: () => {
				const carried = [...this.tools].flatMap(([server, list]) => list.map((news) => ({ server, news })));
				for (const { news } of carried) {
					this.sealed.add(news);
				}
				const paragraphs = carried.map(({ server, news }) => {
					const names = (set: ReadonlySet<string>) => [...set].sort().map((tool) => mcpToolName(server, tool)).join(', ');
					const lines = [
						news.added.size > 0 ? `- added: ${names(news.added)}` : undefined,
						news.removed.size > 0 ? `- removed (no longer callable): ${names(news.removed)}` : undefined,
						news.changed.size > 0
							? `- changed (description, input schema or annotations; read the tool's definition again before calling it; the person's approval of it is suspended until they allow a call of the new definition): ${names(news.changed)}`
							: undefined,
					].filter((line) => line !== undefined);
					return [`The MCP server ${sanitizeUntrusted(server)} changed its tools (at ${clockTime(news.at)}):`, ...lines].join('\n');
				});
				return {
					body: paragraphs.join('\n\n'),
					label: serversLabel(MCP_TOOLS_CHANGED.label, carried.map(({ server }) => server)),
					commit: () => {
						for (const { server, news } of carried) {
							const left = (this.tools.get(server) ?? []).filter((entry) => entry !== news);
							if (left.length > 0) {
								this.tools.set(server, left);
							} else {
								this.tools.delete(server);
							}
						}
					},
				};
			},
		});
	}
}
