// The window's MCP servers against real servers: the reference server (server-everything) over
// stdio, started by the SDK as Aside launches it, and small misbehaving servers written here.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { homedir } from 'node:os';
import { after, describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { unusedPort } from '../testing/loopbackPort';
import { EVERYTHING, httpEverything } from '../testing/everything';
import { waitForEvent } from '../base/event';
import { launchOf } from './launch';
import { readUserServers, type ServerConfig } from './serverConfig';
import { sdkConnector } from './sdkConnector';
import { McpServers, type ServersChange } from './servers';
import type { Tool, ToolContext } from '../tools/tool';

function source(setting: unknown) {
	const changed = new Emitter<void>();
	let current = readUserServers(setting);
	return {
		read: () => current,
		onDidChange: changed.event,
		set(next: unknown) {
			current = readUserServers(next);
			changed.fire();
		},
	};
}

const opened: McpServers[] = [];
after(() => {
	for (const servers of opened) {
		servers.dispose();
	}
});

interface Options {
	approve?: (config: ServerConfig) => Promise<boolean>;
	startupMs?: number;
	requestMs?: number;
	/** Servers as a workspace file names them. */
	workspace?: boolean;
}

function serversOf(setting: unknown, options: Options = {}) {
	const configured = source(setting);
	const read = () => {
		const { servers, problems } = configured.read();
		const origin = { kind: 'workspace', file: '.mcp.json', path: '/ws/.mcp.json' } as const;
		return { servers: options.workspace ? servers.map((config) => ({ ...config, origin })) : servers, problems };
	};
	const stderr: string[] = [];
	const servers = new McpServers({
		source: { read, onDidChange: configured.onDidChange },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files here')) }),
		startupTimeoutMs: () => options.startupMs ?? 20_000,
		requestTimeoutMs: () => options.requestMs ?? 20_000,
		approve: options.approve ?? (() => Promise.resolve(true)),
		output: () => ({ stderr: (text) => stderr.push(text), log: () => undefined }),
	});
	opened.push(servers);
	return { servers, configured, stderr };
}

function context(signal = new AbortController().signal): ToolContext {
	return { roots: [process.cwd()], signal } as unknown as ToolContext;
}

function toolNamed(servers: McpServers, name: string): Tool {
	const tool = servers.tools().find((candidate) => candidate.name === name);
	assert.ok(tool, `${name} is offered (offered: ${servers.tools().map((t) => t.name).join(', ')})`);
	return tool;
}

const everything = (extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [EVERYTHING, 'stdio'], ...extra });

describe('MCP servers (server-everything over stdio)', () => {
	it('start on the first ready, offer their tools under mcp__server__tool sorted, and call them', async () => {
		const { servers, stderr } = serversOf({ everything: everything() });
		assert.equal(servers.isStarted, false);
		assert.deepEqual(servers.tools(), [], 'nothing runs before a chat asks');
		await servers.ready(new AbortController().signal);
		const [entry] = servers.entries();
		assert.equal(entry?.state.kind, 'connected', JSON.stringify(entry?.state));
		const names = servers.tools().map((tool) => tool.name).filter((name) => name.startsWith('mcp__'));
		assert.ok(names.includes('mcp__everything__echo'));
		assert.ok(names.includes('mcp__everything__get-sum'));
		assert.deepEqual(names, [...names].sort());
		assert.deepEqual(servers.tools().slice(names.length).map((tool) => tool.name), ['McpListResources', 'McpReadResource'], 'the resource tools after them: the server has resources');
		const echo = toolNamed(servers, 'mcp__everything__echo');
		assert.equal(echo.kind, 'run', 'annotations are not trusted: the call asks');
		const result = await echo.run({ message: 'hello from Aside' }, context());
		assert.equal(result.content, 'Echo: hello from Aside');
		assert.match(stderr.join(''), /Starting default \(STDIO\) server/);
		const card = await echo.confirm?.({ message: 'x' }, context());
		assert.match(card?.target ?? '', /Server: everything \(aside\.mcp\.servers in your user settings\)/);
		assert.match(card?.target ?? '', /Annotations: read-only.*not trusted/);
		assert.match(card?.target ?? '', /"message": "x"/);
	});

	it('a server added to the settings after the servers started is waited for by the next ready', async () => {
		const { servers, configured } = serversOf({});
		await servers.ready(new AbortController().signal);
		configured.set({ later: everything() });
		await servers.ready(new AbortController().signal);
		assert.equal(servers.entries()[0]?.state.kind, 'connected');
		assert.ok(servers.tools().some((tool) => tool.name === 'mcp__later__echo'));
	});

	it('a server trusted for annotations has its read-only tools read; disabled tools are not offered', async () => {
		const { servers } = serversOf({ ev: everything({ trustAnnotations: true, disabledTools: ['get-sum'] }) });
		await servers.ready(new AbortController().signal);
		assert.equal(toolNamed(servers, 'mcp__ev__echo').kind, 'read');
		assert.equal(toolNamed(servers, 'mcp__ev__toggle-simulated-logging').kind, 'run');
		assert.equal(servers.tools().some((tool) => tool.name === 'mcp__ev__get-sum'), false);
	});

	it('a stdio server gets the whole environment, its env added, and a null entry removed', async () => {
		process.env.ASIDE_MCP_INHERITED = 'from the host';
		process.env.ASIDE_MCP_REMOVED = 'should go';
		const { servers } = serversOf({ everything: everything({ env: { ASIDE_MCP_ADDED: 'added', ASIDE_MCP_REMOVED: null } }) });
		await servers.ready(new AbortController().signal);
		const result = await toolNamed(servers, 'mcp__everything__get-env').run({}, context());
		const env = JSON.parse(result.content) as Record<string, string>;
		assert.equal(env.ASIDE_MCP_INHERITED, 'from the host');
		assert.equal(env.ASIDE_MCP_ADDED, 'added');
		assert.equal('ASIDE_MCP_REMOVED' in env, false);
		assert.equal(env.HOME, homedir());
	});

	it('a long tool with progress outlives a short request timeout, and an abort cancels a call', async () => {
		const { servers } = serversOf({ everything: everything() }, { requestMs: 1500 });
		await servers.ready(new AbortController().signal);
		const long = toolNamed(servers, 'mcp__everything__trigger-long-running-operation');
		const done = await long.run({ duration: 3, steps: 6 }, context());
		assert.match(done.content, /Long running operation completed/);
		const abort = new AbortController();
		const cancelled = long.run({ duration: 10, steps: 5 }, context(abort.signal));
		setTimeout(() => {
			abort.abort();
		}, 300);
		await assert.rejects(cancelled);
	});

	it('a killed stdio server is reconnecting, then connected again with working tools', async () => {
		const { servers } = serversOf({ everything: everything() });
		await servers.ready(new AbortController().signal);
		const pid = servers.pids().get('everything');
		assert.ok(pid !== undefined);
		const states: string[] = [];
		servers.onDidChange((change: ServersChange) => {
			if (change.kind === 'server' && change.event.kind === 'state') {
				states.push(change.event.state.kind);
			}
		});
		const back = waitForEvent(servers.onDidChange, (change) => change.kind === 'server' && change.event.kind === 'state' && change.event.state.kind === 'connected', 20_000, 'the reconnect');
		process.kill(pid, 'SIGKILL');
		await back;
		assert.deepEqual(states.slice(0, 3), ['reconnecting', 'starting', 'connected']);
		assert.notEqual(servers.pids().get('everything'), pid);
		const result = await toolNamed(servers, 'mcp__everything__echo').run({ message: 'again' }, context());
		assert.equal(result.content, 'Echo: again');
	});
});

describe('MCP servers (server-everything over Streamable HTTP)', () => {
	const running: ChildProcess[] = [];
	after(() => {
		for (const child of running) {
			child.kill();
		}
	});

	it('connect, call a tool, and initialise again when the server forgot the session (it restarted)', async () => {
		const port = await unusedPort();
		running.push(await httpEverything(port));
		const { servers } = serversOf({ web: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } });
		await servers.ready(new AbortController().signal);
		assert.equal(servers.entries()[0]?.state.kind, 'connected');
		const echo = toolNamed(servers, 'mcp__web__echo');
		assert.equal((await echo.run({ message: 'over HTTP' }, context())).content, 'Echo: over HTTP');
		running.shift()?.kill('SIGKILL');
		await new Promise((resolve) => setTimeout(resolve, 300));
		running.push(await httpEverything(port));
		const states: string[] = [];
		servers.onDidChange((change) => {
			if (change.kind === 'server' && change.event.kind === 'state') {
				states.push(change.event.state.kind);
			}
		});
		assert.equal((await echo.run({ message: 'after its restart' }, context())).content, 'Echo: after its restart');
		assert.deepEqual(states, ['reconnecting', 'starting', 'connected']);
	});
});

describe('MCP servers that fail', () => {
	it('a command that is not found says which PATH was searched; the other server starts', async () => {
		const { servers } = serversOf({
			missing: { command: 'aside-no-such-mcp-server', env: { PATH: '/nowhere/bin' } },
			everything: everything(),
		}, { startupMs: 10_000 });
		await servers.ready(new AbortController().signal);
		const missing = servers.entries().find((entry) => entry.config.name === 'missing');
		assert.equal(missing?.state.kind, 'failed');
		assert.match('message' in missing.state ? missing.state.message : '', /"aside-no-such-mcp-server" was not found: it is not on the PATH searched: \/nowhere\/bin/);
		assert.ok(servers.tools().some((tool) => tool.name === 'mcp__everything__echo'));
	});

	it('a server that never answers the initialisation fails at the startup timeout; one printing garbage fails with why', async () => {
		const { servers } = serversOf({
			silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] },
			garbage: { command: process.execPath, args: ['-e', 'process.stdout.write("this is not json\\n{also not\\n"); setInterval(() => {}, 1000)'] },
		}, { startupMs: 4000 });
		await servers.ready(new AbortController().signal);
		for (const entry of servers.entries()) {
			assert.ok(entry.state.kind === 'reconnecting' || entry.state.kind === 'failed', `${entry.config.name}: ${JSON.stringify(entry.state)}`);
			assert.equal(entry.state.kind, 'failed', 'a server that never started is not retried');
			assert.match('message' in entry.state ? entry.state.message : '', /^it did not answer the initialisation within 4 s\.$/);
		}
		assert.deepEqual(servers.tools(), []);
	});

	it('a workspace server the person declines spawns nothing', async () => {
		let asked = 0;
		const approve = () => {
			asked++;
			return Promise.resolve(false);
		};
		const { servers } = serversOf({ w: everything() }, { approve, workspace: true });
		await servers.ready(new AbortController().signal);
		assert.equal(asked, 1);
		assert.equal(servers.entries()[0]?.state.kind, 'declined');
		assert.equal(servers.pids().size, 0);
		assert.deepEqual(servers.tools(), []);
	});
});
