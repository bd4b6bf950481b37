// The chat's MCP reminders through a chat's real ReminderEngine, over the window's servers with a
// connection made here (the integration tier runs the real reference server): what the first
// request carries, a burst of list_changed, a failed request, a server that drops and comes back.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { ChatSession } from '../../agent/session';
import { Emitter } from '../../base/event';
import { readUserServers } from '../../mcp/serverConfig';
import { McpServers } from '../../mcp/servers';
import type { McpConnector, McpSession, McpToolInfo } from '../../mcp/session';
import type { Owner } from '../../reminders/definition';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { FakeTimers } from '../../testing/fakeTimers';
import { userText } from '../../testing/history';
import { MemorySessionStore } from '../../testing/memorySessionStore';
import { testEnvironment } from '../../testing/sessions';
import { ChatMcp } from './chatMcp';
import { serversLabel } from './serverNews';
import type { TranscriptEntry } from '../../transcript/records';

const tool = (name: string, description = `${name} does things`): McpToolInfo => ({ name, description, inputSchema: { type: 'object' }, annotations: {} });

/** A server connection whose tool list, notifications and end the spec drives. */
class DrivenServer {
	tools: McpToolInfo[] = [tool('search'), tool('fetch')];
	instructions: string | undefined = 'Call search before fetch.';
	current: { changed: Emitter<void>; closed: Emitter<{ readonly error?: string }>; updated: Emitter<string> } | undefined;
	readonly subscribed: string[] = [];
	connects = 0;

	readonly connector: McpConnector = {
		connect: () => {
			this.connects++;
			const changed = new Emitter<void>();
			const closed = new Emitter<{ readonly error?: string }>();
			const updated = new Emitter<string>();
			this.current = { changed, closed, updated };
			const session: McpSession = {
				facts: { name: 'docs-server', version: '1.2.0', ...(this.instructions === undefined ? {} : { instructions: this.instructions }), offers: { tools: true, resources: true, subscribe: true, prompts: false, completions: false } },
				pid: undefined,
				listTools: () => Promise.resolve(this.tools.slice()),
				callTool: () => Promise.reject(new Error('not called here')),
				listResources: () => Promise.resolve([{ uri: 'docs://guide', name: 'Guide' }]),
				readResource: (uri) => Promise.resolve([{ type: 'resource', uri, text: `the text of ${uri}` }]),
				subscribe: (uri) => {
					this.subscribed.push(uri);
					return Promise.resolve(true);
				},
				listPrompts: () => Promise.resolve([]),
				getPrompt: () => Promise.reject(new Error('not called here')),
				completePromptArgument: () => Promise.resolve({ values: [], hasMore: false }),
				onDidChangeTools: changed.event,
				onDidChangePrompts: new Emitter<void>().event,
				onDidUpdateResource: updated.event,
				onDidClose: closed.event,
				close: () => Promise.resolve(),
			};
			return Promise.resolve(session);
		},
	};
}

async function settle(): Promise<void> {
	for (let i = 0; i < 10; i++) {
		await Promise.resolve();
	}
}

function chat(records: readonly TranscriptEntry[] = []) {
	const clock = new FakeClock(Date.UTC(2026, 11, 7, 14, 2, 11));
	const timers = new FakeTimers(clock);
	const server = new DrivenServer();
	const servers = new McpServers({
		source: { read: () => readUserServers({ docs: { command: 'docs-mcp' } }), onDidChange: new Emitter<void>().event },
		connector: server.connector,
		launch: (config) => Promise.resolve({ transport: 'stdio', command: config.transport === 'stdio' ? config.command : '', args: [], env: {} }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 1000,
		requestTimeoutMs: () => 1000,
		timers,
	});
	const store = new MemorySessionStore();
	store.records.push(...records);
	const ids = new SequentialIds('id');
	const session = new ChatSession('s1', store, { ...testEnvironment(clock, ids), reminderConfig: DEFAULT_REMINDER_CONFIG }, store.records);
	const state = new ChatMcp(session, servers, clock);
	const engine = session.reminders;
	let owner: Owner | undefined;
	let n = 0;
	/** One request of the running turn (a new turn when `turn`): the MCP entries it carried, by key. */
	const request = async (options: { turn?: boolean; commit?: boolean } = {}) => {
		if (options.turn === true || !owner) {
			owner = engine.beginUserTurn(`t${++n}`);
		}
		const injection = engine.wait({ requestId: `r${++n}`, owner, phase: options.turn === true ? 'turn-start' : 'mid-turn', messages: [userText('go')] }, undefined);
		if (options.commit !== false) {
			await injection.commit();
		}
		const entries = (injection.record?.entries ?? []).filter((entry) => entry.key.startsWith('mcp.'));
		// The bodies by key; `labels`: each entry's row label by key.
		return Object.assign(new Map(entries.map((entry) => [entry.key, entry.body])), { labels: new Map(entries.map((entry) => [entry.key, entry.label])) });
	};
	return { clock, timers, server, servers, state, request };
}

describe('the chat\'s MCP reminders', () => {
	it('nothing before the servers were asked to start; then mcp.servers and mcp.instructions, and no mcp.tools-changed for the first listing', async () => {
		const { servers, request } = chat();
		assert.deepEqual([...(await request({ turn: true })).keys()], []);
		await servers.ready(new AbortController().signal);
		const first = await request();
		assert.deepEqual([...first.keys()].sort(), ['mcp.instructions', 'mcp.servers']);
		assert.match(first.get('mcp.servers') ?? '', /- docs: connected, 2 tools \(mcp__docs__…; the server says it is docs-server 1\.2\.0\)/);
		assert.match(first.get('mcp.instructions') ?? '', /## docs\n\nCall search before fetch\./);
		assert.deepEqual([...(await request()).keys()], [], 'on change: said once');
	});

	it('a burst of four list_changed gives one mcp.tools-changed with what changed in all, and none in the request after', async () => {
		const { servers, server, request } = chat();
		await servers.ready(new AbortController().signal);
		await request({ turn: true });
		server.tools = [tool('search'), tool('fetch'), tool('summarise')];
		server.current?.changed.fire();
		server.tools = [tool('search', 'search, now with filters'), tool('fetch'), tool('summarise'), tool('scratch')];
		server.current?.changed.fire();
		server.tools = [tool('search', 'search, now with filters'), tool('summarise'), tool('scratch')];
		server.current?.changed.fire();
		server.tools = [tool('search', 'search, now with filters'), tool('summarise')];
		server.current?.changed.fire();
		await settle();
		const next = await request();
		assert.equal(next.get('mcp.tools-changed'), [
			'The MCP server docs changed its tools (at 14:02:11 UTC):',
			'- added: mcp__docs__summarise',
			'- removed (no longer callable): mcp__docs__fetch',
			'- changed (description, input schema or annotations; read the tool\'s definition again before calling it; the person\'s approval of it is suspended until they allow a call of the new definition): mcp__docs__search',
		].join('\n'));
		assert.equal(next.labels.get('mcp.tools-changed'), 'MCP tools changed: docs');
		assert.equal(next.has('mcp.servers'), false, 'still 2 tools: the section is unchanged');
		assert.equal((await request()).has('mcp.tools-changed'), false);
	});

	it('a request that failed commits nothing: the next one carries the same news, and what came meanwhile', async () => {
		const { servers, server, request, clock } = chat();
		await servers.ready(new AbortController().signal);
		await request({ turn: true });
		server.tools = [...server.tools, tool('extra')];
		server.current?.changed.fire();
		await settle();
		const failed = await request({ commit: false });
		assert.match(failed.get('mcp.tools-changed') ?? '', /added: mcp__docs__extra/);
		clock.time += 5000;
		server.tools = server.tools.filter((candidate) => candidate.name !== 'search');
		server.current?.changed.fire();
		await settle();
		const again = await request();
		assert.match(again.get('mcp.tools-changed') ?? '', /at 14:02:11 UTC\):\n- added: mcp__docs__extra\n\nThe MCP server docs changed its tools \(at 14:02:16 UTC\):\n- removed \(no longer callable\): mcp__docs__search/);
		assert.equal((await request()).has('mcp.tools-changed'), false);
	});

	it('a server that drops and comes back is one mcp.server-state with both, and mcp.servers is not given again when nothing else changed', async () => {
		const { servers, server, request, timers } = chat();
		await servers.ready(new AbortController().signal);
		await request({ turn: true });
		server.current?.closed.fire({ error: 'read ECONNRESET' });
		await settle();
		timers.advance(1000);
		await settle();
		assert.equal(server.connects, 2);
		const next = await request();
		assert.equal(next.get('mcp.server-state'), [
			'What happened to the chat\'s MCP servers since you were last told:',
			'- 14:02:11 UTC docs: disconnected (the connection ended: read ECONNRESET); its tools are not offered until Aside reconnects it.',
			'- 14:02:12 UTC docs: reconnected; its tools were listed again. Changes while it was disconnected were not delivered: what you read from it earlier may be out of date.',
		].join('\n'));
		assert.equal(next.labels.get('mcp.server-state'), 'MCP server state: docs', 'the row names the server');
		assert.equal(next.has('mcp.servers'), false);
		assert.equal(next.has('mcp.tools-changed'), false, 'the same tools after the reconnect');
	});

	it('ten updates of a resource the model read give one mcp.resources-updated entry with their count; one it did not read gives none', async () => {
		const { servers, server, state, request, clock } = chat();
		await servers.ready(new AbortController().signal);
		await request({ turn: true });
		const read = servers.tools().find((tool) => tool.name === 'McpReadResource');
		assert.ok(read);
		const result = await read.run({ server: 'docs', uri: 'docs://guide' }, { signal: new AbortController().signal, features: state.toolAccess() } as never);
		assert.equal(result.content, 'Resource docs://guide:\nthe text of docs://guide');
		await settle();
		assert.deepEqual(server.subscribed, ['docs://guide'], 'the chat asked for its updates');
		for (let i = 0; i < 10; i++) {
			clock.time += 1000;
			server.current?.updated.fire('docs://guide');
		}
		server.current?.updated.fire('docs://unread');
		const next = await request();
		assert.equal(next.get('mcp.resources-updated'), [
			'Resources you read from MCP servers changed since you read them (their new content is not included: read them again with McpReadResource before relying on what they said):',
			'- docs: docs://guide — updated 10 times, last at 14:02:21 UTC',
		].join('\n'));
		assert.equal(next.labels.get('mcp.resources-updated'), 'MCP resources updated: docs');
		assert.equal((await request()).has('mcp.resources-updated'), false);
	});

	it('a reopened chat follows again the resources its records read, once their server is connected', async () => {
		const at = Date.UTC(2026, 11, 7);
		const { servers, server, request } = chat([
			{ kind: 'user', id: 'u1', turnId: 't1', at, text: 'Read the guide.' },
			{ kind: 'assistant', id: 'a1', turnId: 't1', requestId: 'r1', at, text: '', toolCalls: [{ id: 'c1', name: 'McpReadResource', input: { server: 'docs', uri: 'docs://guide' } }, { id: 'c2', name: 'McpReadResource', input: { server: 'docs', uri: 'docs://missing' } }], stop: 'tool_use' },
			{ kind: 'tool-result', id: 'x1', turnId: 't1', callId: 'c1', name: 'McpReadResource', at, content: 'the guide', isError: false },
			{ kind: 'tool-result', id: 'x2', turnId: 't1', callId: 'c2', name: 'McpReadResource', at, content: 'no such resource', isError: true },
		] as TranscriptEntry[]);
		await servers.ready(new AbortController().signal);
		await settle();
		assert.deepEqual(server.subscribed, ['docs://guide'], 'only the read that succeeded');
		await request({ turn: true });
		server.current?.updated.fire('docs://guide');
		assert.match((await request()).get('mcp.resources-updated') ?? '', /- docs: docs:\/\/guide — updated once/);
	});
});

describe('an MCP delivery\'s row label', () => {
	it('names the servers it is about, each once, at most three and how many more; a long name is cut', () => {
		assert.equal(serversLabel('MCP tools changed', []), 'MCP tools changed');
		assert.equal(serversLabel('MCP tools changed', ['docs', 'files', 'docs']), 'MCP tools changed: docs, files');
		assert.equal(serversLabel('MCP server state', ['a', 'b', 'c', 'd', 'e']), 'MCP server state: a, b, c +2 more');
		assert.equal(serversLabel('MCP server state', ['x'.repeat(60)]), `MCP server state: ${'x'.repeat(39)}…`);
	});
});
