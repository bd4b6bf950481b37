// The server list's host side against real servers: the reference server (server-everything) over
// stdio, and a server that writes to stderr and exits, through the MCP feature's one view part.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Emitter, waitForEvent } from '../../base/event';
import { specTokens } from '../../mcp/deferral';
import { launchOf } from '../../mcp/launch';
import { readUserServers } from '../../mcp/serverConfig';
import { sdkConnector } from '../../mcp/sdkConnector';
import { McpServers } from '../../mcp/servers';
import type { McpServersView } from '../../protocol/mcp';
import type { ViewMessage } from '../../protocol/messages';
import { RecordingLogger } from '../../testing/recordingLogger';
import type { FeatureViewPort, Unsequenced } from '../../view/featureView';
import { McpViewPart } from './mcpViewPart';
import { McpPromptsPart } from './promptsPart';
import { McpRequestCards } from './requestCards';
import { type McpServerControl, McpServerList, STDERR_LINES, stderrLines } from './serverList';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const FAILING = `for (let i = 1; i <= 12; i++) process.stderr.write('line ' + i + ' <img src=x onerror=alert(1)>\\x1b[31m\\n'); process.exit(3);`;

const opened: { dispose(): void }[] = [];
after(() => {
	for (const item of opened) {
		item.dispose();
	}
});

/** The window's servers as the settings name them; `workspace` names those a workspace file configures. */
function setup(setting: Record<string, unknown>, workspace: readonly string[] = []) {
	const stderr = new Map<string, string>();
	const changed = new Emitter<void>();
	const servers = new McpServers({
		source: {
			read: () => {
				const { servers: configs, problems } = readUserServers(setting);
				const origin = { kind: 'workspace', file: '.mcp.json', path: '/ws/.mcp.json' } as const;
				return { servers: configs.map((config) => (workspace.includes(config.name) ? { ...config, origin } : config)), problems };
			},
			onDidChange: changed.event,
		},
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		approve: () => Promise.resolve(true),
		output: (server) => ({ stderr: (text) => stderr.set(server, (stderr.get(server) ?? '') + text), log: () => undefined }),
	});
	const calls: string[] = [];
	const control: McpServerControl & { isTrusted: boolean } = {
		isTrusted: true,
		trusted: () => control.isTrusted,
		showOutput: (server) => calls.push(`output ${server}`),
		stderrTail: (server) => stderr.get(server) ?? '',
		setDisabled: (server, disabled) => {
			calls.push(`disabled ${server} ${disabled}`);
			return Promise.resolve(undefined);
		},
	};
	const log = new RecordingLogger();
	const part = new McpViewPart(new McpPromptsPart(undefined, log), new McpServerList(servers, control, log), new McpRequestCards(undefined, () => 'chat', new Emitter<void>().event));
	opened.push(part, servers);
	const sent: Unsequenced[] = [];
	const notices: string[] = [];
	const port: FeatureViewPort = { send: (message) => sent.push(message), notice: (_level, text) => notices.push(text) };
	const lists = (): McpServersView[] => sent.flatMap((message) => (message.type === 'mcp.servers' ? [message.view] : []));
	return { servers, control, calls, part, port, sent, notices, lists, stderr };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the MCP server list (host side)', () => {
	it('shows each server\'s state, tool count, spec cost and a failed one\'s last stderr lines, live', async () => {
		const { servers, part, port, lists } = setup({
			everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
			broken: { command: process.execPath, args: ['-e', FAILING] },
			later: { command: process.execPath, args: [EVERYTHING, 'stdio'], disabled: true },
		});
		assert.equal(part.id, 'mcp', 'one part, the feature\'s id');
		part.connect(port);
		part.shown(port);
		const first = lists().at(-1);
		assert.deepEqual(first?.servers.map((server) => [server.name, server.state, server.toolCount]), [['everything', 'stopped', 0], ['broken', 'stopped', 0], ['later', 'disabled', 0]]);
		assert.equal(first.trusted, true);

		await servers.start();
		const last = lists().at(-1);
		assert.ok(last);
		assert.ok(lists().length > 2, 'the list was sent again as the servers changed');
		const [everything, broken, later] = last.servers;
		assert.ok(everything && broken && later);
		assert.equal(everything.state, 'connected');
		const tools = servers.mcpTools().filter((tool) => tool.server === 'everything');
		assert.ok(tools.length > 5);
		assert.equal(everything.toolCount, tools.length);
		assert.equal(everything.specTokens, tools.reduce((sum, tool) => sum + specTokens(tool), 0));
		assert.ok(everything.specTokens > 100, `the spec cost is counted: ${everything.specTokens}`);
		assert.equal(everything.stderr, undefined, 'a connected server shows no stderr');
		assert.equal(everything.user, true);
		assert.equal(everything.origin, 'user settings');

		assert.equal(broken.state, 'failed');
		assert.match(broken.words, /^failed: /);
		const lines = broken.stderr?.split('\n') ?? [];
		assert.equal(lines.length, STDERR_LINES, 'its last lines only');
		assert.equal(lines.at(-1), 'line 12 <img src=x onerror=alert(1)>[31m', 'the last line, its escape character dropped, its markup as it was');
		assert.equal(lines[0], `line ${12 - STDERR_LINES + 1} <img src=x onerror=alert(1)>[31m`);
		assert.equal(later.state, 'disabled');
		assert.equal(later.words, 'disabled in its configuration');
		assert.equal(last.deferred, undefined);
	});

	it('restarts, shows the output, and disables only a server of the user settings', async () => {
		const { servers, part, port, calls, notices } = setup(
			{ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, shared: { command: process.execPath, args: [EVERYTHING, 'stdio'], disabled: true } },
			['shared'],
		);
		part.connect(port);
		await servers.start();
		const pid = servers.pids().get('everything');
		assert.ok(pid);
		const restarted = waitForEvent(servers.onDidChange, (change) => change.kind === 'server' && change.event.kind === 'state' && change.event.state.kind === 'connected', 20_000, 'the restarted server connected');
		part.receive({ type: 'mcp.restart', server: 'everything' } satisfies ViewMessage, port);
		await restarted;
		assert.notEqual(servers.pids().get('everything'), pid, 'a new process');

		part.receive({ type: 'mcp.showOutput', server: 'everything' }, port);
		part.receive({ type: 'mcp.setDisabled', server: 'everything', disabled: true }, port);
		part.receive({ type: 'mcp.setDisabled', server: 'shared', disabled: false }, port);
		part.receive({ type: 'mcp.restart', server: 'nowhere' }, port);
		await flush();
		assert.deepEqual(calls, ['output everything', 'disabled everything true'], 'the workspace server\'s entry is not rewritten');
		assert.deepEqual(notices, [
			'"shared" is configured in .mcp.json: edit that file to disable or enable it.',
			'There is no MCP server named "nowhere".',
		]);
	});

	it('says MCP does not run in Restricted Mode, and refuses Restart there', async () => {
		const { servers, part, port, control, notices, lists } = setup({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
		control.isTrusted = false;
		part.connect(port);
		part.shown(port);
		assert.equal(lists().at(-1)?.trusted, false);
		part.receive({ type: 'mcp.restart', server: 'everything' }, port);
		await flush();
		assert.equal(servers.entries()[0]?.state.kind, 'stopped', 'nothing started');
		assert.match(notices[0] ?? '', /Restricted Mode/);
	});

	it('sends nothing before servers are configured but an empty list', () => {
		const { part, port, lists } = setup({});
		part.shown(port);
		assert.deepEqual(lists(), [{ trusted: true, servers: [], problems: [] }]);
	});
});

describe('stderrLines', () => {
	it('keeps the last lines, drops control characters, cuts long lines and bounds the whole', () => {
		assert.equal(stderrLines(''), undefined);
		assert.equal(stderrLines('\n\n  \n'), undefined);
		assert.equal(stderrLines('a\r\nb\rc\u0007\u001b[0m\n'), 'a\nb\nc[0m');
		const long = stderrLines(`${'x'.repeat(10_000)}\n`.repeat(20)) ?? '';
		assert.ok(long.length <= 2000, `bounded: ${long.length}`);
		assert.ok(long.split('\n').every((line) => line.length <= 240));
	});
});
