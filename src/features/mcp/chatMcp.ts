// One chat's side of the window's MCP servers (docs/mcp.md): it installs the chat's MCP reminders
// and turns what the servers report into the news the model is told — a connected server that
// dropped, came back or was given up on (mcp.server-state), tools that changed (mcp.tools-changed).
// A reopened chat counts the sections its retained history holds as delivered. The resources the
// model read (McpReadResource) or was given by a mention (`@mcp:`, once the request carrying it
// went out) are followed: their updates are mcp.resources-updated.
import type { FeatureState } from '../../agent/chatFeature';
import type { ChatSession } from '../../agent/session';
import type { Clock } from '../../base/clock';
import { DisposableStore } from '../../base/lifecycle';
import type { McpServers, ServersChange } from '../../mcp/servers';
import { RECORD_KIND } from '../../reminders/record';
import { MCP_CATALOG, MCP_INSTRUCTIONS, MCP_SERVERS } from './mcpReminders';
import { catalogDefinition } from './catalogSection';
import { ServerNews } from './serverNews';
import { ResourceNews } from './resourceNews';
import { grant, type FeatureAccess } from '../../tools/featureAccess';
import { MCP_ACCESS, READ_TOOL } from '../../mcp/resourceTools';
import { instructionsDefinition, serversDefinition } from './serverSections';
import { mentionedResources } from './mentionReminder';

export class ChatMcp implements FeatureState {
	private readonly store = new DisposableStore();
	private readonly news: ServerNews;
	private readonly resources: ResourceNews;
	/** The resources the model read in this chat, by server: their updates are news. */
	private readonly read = new Map<string, Set<string>>();
	/** Servers this chat saw connected: a drop of one is news, a first failure is not (mcp.servers says it). */
	private readonly connected = new Set<string>();
	/** Servers seen connected that are disconnected now (a drop was told, a reconnect will be). */
	private readonly dropped = new Set<string>();

	constructor(
		private readonly session: ChatSession,
		private readonly servers: McpServers,
		clock: Clock,
	) {
		this.news = new ServerNews(() => clock.now());
		this.resources = new ResourceNews(() => clock.now());
		for (const entry of servers.entries()) {
			if (entry.state.kind === 'connected') {
				this.connected.add(entry.config.name);
			}
		}
		const { roster } = session.reminders;
		if (!roster.has(MCP_SERVERS.type)) {
			roster.register(serversDefinition(servers));
			roster.register(instructionsDefinition(servers));
			roster.register(this.news.stateDefinition());
			roster.register(this.news.toolsDefinition());
			roster.register(this.resources.definition());
			roster.register(catalogDefinition(servers));
			this.restoreSections();
		}
		this.restoreReads();
		this.store.add(servers.onDidChange((change) => {
			this.take(change);
		}));
		// A mention's entry is recorded only once the request carrying it went out: then the model has it.
		this.store.add(session.onDidAppend((record) => {
			if (record.kind === RECORD_KIND) {
				for (const { server, uri } of mentionedResources([record]).values()) {
					this.follow(server, uri);
				}
			}
		}));
	}

	/** The model has `uri` of `server` in this chat: its updates are news from now on. */
	private follow(server: string, uri: string): void {
		const uris = this.read.get(server) ?? new Set<string>();
		this.read.set(server, uris.add(uri));
		void this.servers.subscribe(server, uri).catch(() => undefined);
	}

	private take(change: ServersChange): void {
		if (change.kind !== 'server') {
			return;
		}
		const { server, event } = change;
		if (event.kind === 'tools') {
			this.news.toolsChanged(server, event.change);
			return;
		}
		if (event.kind === 'resource-updated') {
			if (this.read.get(server)?.has(event.uri) === true) {
				this.resources.updated(server, event.uri);
			}
			return;
		}
		const { state } = event;
		const seen = this.connected.has(server);
		if (state.kind === 'connected') {
			if (seen && this.dropped.delete(server)) {
				this.news.state({ server, what: 'reconnected' });
			}
			this.connected.add(server);
			// What a reopened chat read before follows again once its server is there.
			for (const uri of this.read.get(server) ?? []) {
				void this.servers.subscribe(server, uri).catch(() => undefined);
			}
		} else if (state.kind === 'reconnecting' && seen && !this.dropped.has(server)) {
			this.dropped.add(server);
			this.news.state({ server, what: 'dropped', message: state.message });
		} else if ((state.kind === 'failed' || state.kind === 'needs-sign-in') && seen) {
			this.connected.delete(server);
			this.dropped.delete(server);
			this.news.state(state.kind === 'failed' ? { server, what: 'gave-up', message: state.message } : { server, what: 'needs-sign-in' });
		}
	}

	/**
	 * A reopened chat follows again the resources it read (successful McpReadResource calls of its
	 * records) or was given by mentions: at once where their server is connected, else when it connects.
	 */
	private restoreReads(): void {
		const read = new Set<string>();
		for (const record of this.session.selectedRecords) {
			if (record.kind === 'tool-result' && record.name === READ_TOOL && !record.isError) {
				read.add(record.callId);
			}
		}
		for (const record of this.session.selectedRecords) {
			if (record.kind !== 'assistant') {
				continue;
			}
			for (const call of record.toolCalls) {
				const input = call.input as { server?: unknown; uri?: unknown } | undefined;
				if (read.has(call.id) && typeof input?.server === 'string' && typeof input.uri === 'string') {
					this.follow(input.server, input.uri);
				}
			}
		}
		for (const { server, uri } of mentionedResources(this.session.selectedRecords).values()) {
			this.follow(server, uri);
		}
	}

	/** A reopened chat: the sections its retained history holds stay delivered (made after the session restored the others). */
	private restoreSections(): void {
		const last = new Map<string, { readonly turn: number; readonly body: string }>();
		for (const record of this.session.selectedRecords) {
			if (record.kind === RECORD_KIND && record.owner.kind === 'root') {
				for (const entry of record.entries) {
					if (entry.type === MCP_SERVERS.type || entry.type === MCP_INSTRUCTIONS.type || entry.type === MCP_CATALOG.type) {
						last.set(entry.type, { turn: record.turn, body: entry.body });
					}
				}
			}
		}
		for (const [type, { turn, body }] of last) {
			this.session.reminders.roster.restoreDelivery(type, turn, body);
		}
	}

	/** Every loop of the chat (sub-agents' too) reports its resource reads here. */
	toolAccess(): FeatureAccess {
		return grant(MCP_ACCESS, {
			chat: this.session.id,
			didRead: (server, uri) => {
				this.follow(server, uri);
			},
		});
	}

	dispose(): void {
		this.store.dispose();
	}
}
