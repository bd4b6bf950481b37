// MCP: what Aside adds to a tool call over the SDK's own (the reference server, server-everything,
// over stdio: the same echo call through a bare SDK client and through Aside's tool — window
// servers, connection, SDK session, result bounding), and what a chat with 10 connected servers
// and 200 tools costs at every request: WAIT with the chat's MCP reminders installed (nothing new
// to say, the steady state), and the tool list with its specs, asked at every step — offered one
// by one and deferred behind the three stable tools, with what each costs a request in tokens.
import '../src/testing/chatFeatures';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ChatSession } from '../src/agent/session';
import { Emitter } from '../src/base/event';
import { ChatMcp } from '../src/features/mcp/chatMcp';
import { launchOf } from '../src/mcp/launch';
import { readUserServers } from '../src/mcp/serverConfig';
import { sdkConnector } from '../src/mcp/sdkConnector';
import { McpServers } from '../src/mcp/servers';
import { type DeferAt, specTokens } from '../src/mcp/deferral';
import { promptChars, tokensOfChars } from '../src/agent/compaction/estimate';
import { catalogBody } from '../src/features/mcp/catalogSection';
import type { McpConnector, McpSession, McpToolInfo } from '../src/mcp/session';
import { DEFAULT_REMINDER_CONFIG } from '../src/reminders/config';
import type { Owner } from '../src/reminders/definition';
import { FakeClock, SequentialIds } from '../src/testing/fakeClock';
import { userText } from '../src/testing/history';
import { MemorySessionStore } from '../src/testing/memorySessionStore';
import { testEnvironment } from '../src/testing/sessions';
import { toolSpecs } from '../src/tools/registry';
import type { ToolContext } from '../src/tools/tool';
import { type BenchRow, measure, measureAsync, report } from './harness';

const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const CALLS = { warmup: 50, iterations: 500 };
const WAITS = { warmup: 2_000, iterations: 20_000 };
const SERVERS = 10;
const TOOLS_PER_SERVER = 20;

function row(name: string, iterations: number, stats: { median_us: number; p99_us: number; max_us: number; mean_us: number; heap_delta_kb: number }, target = '—'): BenchRow {
	return { name, iterations, 'median (µs)': stats.median_us, 'p99 (µs)': stats.p99_us, 'max (µs)': stats.max_us, 'mean (µs)': stats.mean_us, 'heap Δ (KB)': stats.heap_delta_kb, target };
}

async function callOverhead(): Promise<BenchRow[]> {
	const client = new Client({ name: 'bench', version: '1' }, { capabilities: {} });
	await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
	const sdk = await measureAsync(() => undefined, async () => (await client.callTool({ name: 'echo', arguments: { message: 'bench' } })).content.length, CALLS);
	await client.close();
	const servers = new McpServers({
		source: { read: () => readUserServers({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }), onDidChange: new Emitter<void>().event },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, readFile: () => Promise.reject(new Error('none')) }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
	});
	await servers.ready(new AbortController().signal);
	const echo = servers.tools().find((tool) => tool.name === 'mcp__everything__echo');
	if (!echo) {
		throw new Error('server-everything offered no echo tool');
	}
	const context = { signal: new AbortController().signal } as unknown as ToolContext;
	const aside = await measureAsync(() => undefined, async () => (await echo.run({ message: 'bench' }, context)).content.length, CALLS);
	servers.dispose();
	return [
		row('echo through the bare SDK client', CALLS.iterations, sdk),
		row('echo through Aside\'s tool (servers, connection, SDK session, result)', CALLS.iterations, aside),
		{ name: 'of which Aside\'s own share (difference of the medians)', iterations: CALLS.iterations, 'median (µs)': Math.round((aside.median_us - sdk.median_us) * 100) / 100, 'p99 (µs)': '', 'max (µs)': '', 'mean (µs)': '', 'heap Δ (KB)': '', target: '—' },
	];
}

/** In-process servers with `TOOLS_PER_SERVER` tools each (schemas of a realistic size). */
function inProcessConnector(): McpConnector {
	let made = 0;
	return {
		connect: () => {
			const index = made++;
			const tools: McpToolInfo[] = Array.from({ length: TOOLS_PER_SERVER }, (_, tool) => ({
				name: `tool_${tool}`,
				description: `Does thing ${tool} of server ${index}: reads the records that match the query and returns them as a table, newest first.`,
				inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'What to look for.' }, limit: { type: 'integer', minimum: 1, maximum: 100 } }, required: ['query'] },
				annotations: { readOnlyHint: tool % 2 === 0 },
			}));
			const session: McpSession = {
				facts: { name: `server-${index}`, version: '1.0.0', instructions: `Use server ${index}'s tools for its records.`, offers: { tools: true, resources: false, subscribe: false, prompts: false, completions: false } },
				pid: undefined,
				listTools: () => Promise.resolve(tools),
				callTool: () => Promise.reject(new Error('not called')),
				listResources: () => Promise.resolve([]),
				readResource: () => Promise.resolve([]),
				subscribe: () => Promise.resolve(false),
				listPrompts: () => Promise.resolve([]),
				getPrompt: () => Promise.reject(new Error('not called')),
				completePromptArgument: () => Promise.resolve({ values: [], hasMore: false }),
				onDidChangeTools: new Emitter<void>().event,
				onDidChangePrompts: new Emitter<void>().event,
				onDidUpdateResource: new Emitter<string>().event,
				onDidClose: new Emitter<{ readonly error?: string }>().event,
				close: () => Promise.resolve(),
			};
			return Promise.resolve(session);
		},
	};
}

/** `SERVERS` in-process servers, started; `deferAt` as the setting says. */
async function inProcessServers(deferAt?: DeferAt): Promise<McpServers> {
	const configured = Object.fromEntries(Array.from({ length: SERVERS }, (_, index) => [`server${index}`, { command: 'in-process' }]));
	const servers = new McpServers({
		source: { read: () => readUserServers(configured), onDidChange: new Emitter<void>().event },
		connector: inProcessConnector(),
		launch: () => Promise.resolve({ transport: 'stdio', command: 'in-process', args: [], env: {} }),
		approve: () => Promise.resolve(true),
		startupTimeoutMs: () => 1000,
		requestTimeoutMs: () => 1000,
		...(deferAt ? { deferAt: () => deferAt } : {}),
	});
	await servers.ready(new AbortController().signal);
	return servers;
}

/** What the tools cost a request, in tokens (the compaction estimate), offered one by one and deferred. */
const tokenNotes: string[] = [];

async function deferredCost(): Promise<BenchRow[]> {
	const offer = { providerId: 'anthropic', contextWindow: 128_000, otherTools: 12 };
	const whole = await inProcessServers({ kind: 'tokens', tokens: Number.MAX_SAFE_INTEGER });
	const wholeTokens = whole.tools(offer).reduce((sum, tool) => sum + specTokens(tool), 0);
	whole.dispose();
	const servers = await inProcessServers({ kind: 'share', percent: 10 });
	const tools = servers.tools(offer);
	if (servers.deferred === undefined) {
		throw new Error(`${SERVERS * TOOLS_PER_SERVER} tools within 10% of a 128k window: not deferred (${wholeTokens} tokens)`);
	}
	const deferredTokens = tokensOfChars(promptChars('', toolSpecs(tools)));
	const catalogTokens = tokensOfChars((catalogBody(servers) ?? '').length);
	tokenNotes.push(
		`What the ${SERVERS * TOOLS_PER_SERVER} tools cost a request (about 4 characters a token): offered one by one, ${wholeTokens} tokens at every request; deferred (past 10% of a 128k window), ` +
			`${deferredTokens} tokens for McpDescribe, McpCall and McpReadResource at every request, and mcp.catalog ${catalogTokens} tokens once (again only when a list changes).`,
	);
	const deferred = measure(() => toolSpecs(servers.tools(offer)).length, WAITS);
	servers.dispose();
	return [row(`the same tools deferred: the 3 stable tools and their specs, as every step asks them`, WAITS.iterations, deferred)];
}

async function chatCost(): Promise<BenchRow[]> {
	const servers = await inProcessServers();
	const clock = new FakeClock(Date.UTC(2026, 11, 7));
	const store = new MemorySessionStore();
	const session = new ChatSession('bench', store, { ...testEnvironment(clock, new SequentialIds('id')), reminderConfig: DEFAULT_REMINDER_CONFIG }, store.records);
	new ChatMcp(session, servers, clock);
	const engine = session.reminders;
	const owner: Owner = engine.beginUserTurn('t1');
	let n = 0;
	const wait = () => engine.wait({ requestId: `r${++n}`, owner, phase: 'mid-turn', messages: [userText('go')] }, undefined);
	// The first request says the servers and their instructions; from then on there is nothing new.
	await wait().commit();
	const steady = measure(() => wait().record?.entries.length ?? 0, WAITS);
	const offered = measure(() => toolSpecs(servers.tools()).length, WAITS);
	if (servers.tools().length !== SERVERS * TOOLS_PER_SERVER) {
		throw new Error(`expected ${SERVERS * TOOLS_PER_SERVER} tools, got ${servers.tools().length}`);
	}
	servers.dispose();
	return [
		row(`WAIT with the MCP reminders of ${SERVERS} servers, ${SERVERS * TOOLS_PER_SERVER} tools (steady state)`, WAITS.iterations, steady, steady.median_us < 200 && steady.p99_us < 1000 ? 'met' : 'missed'),
		row(`the ${SERVERS * TOOLS_PER_SERVER} MCP tools and their specs, as every step asks them`, WAITS.iterations, offered),
	];
}

async function main(): Promise<void> {
	const started = Date.now();
	const rows = [...(await callOverhead()), ...(await chatCost()), ...(await deferredCost())];
	report({
		case: 'mcp',
		title: 'MCP tool calls and servers (`mcp`)',
		target: 'WAIT with 10 connected servers and 200 tools within the WAIT target: median under 0.2 ms, p99 under 1 ms.',
		rows,
		notes: [
			`The calls go to server-everything over stdio, one at a time, ${CALLS.iterations} each after ${CALLS.warmup} untimed: the same echo through a bare SDK client and through the tool Aside offers the model.`,
			'The WAIT rows use in-process servers (no process, no pipe), so they measure Aside alone; the chat\'s MCP reminders have nothing new to say, as between changes.',
			...tokenNotes,
			`The run took ${((Date.now() - started) / 1000).toFixed(1)} s.`,
		],
	});
}

void main();
